import { describe, expect, it } from 'vitest';
import { getIcon, iconCatalog, listLibraries, resolveIconRef } from './catalog.js';

describe('listLibraries', () => {
  it('has every required library, each with items', () => {
    const libraries = listLibraries();
    expect(libraries.map((library) => library.id)).toEqual(['aws', 'azure', 'gcp', 'kubernetes', 'databases', 'brands', 'generic']);
    for (const library of libraries) {
      expect(library.count, library.id).toBeGreaterThan(0);
      expect(library).not.toHaveProperty('items');
    }
    expect(libraries.find((library) => library.id === 'aws')?.count).toBeGreaterThan(200);
    expect(libraries.find((library) => library.id === 'kubernetes')?.count).toBeGreaterThan(30);
  });

  it('lists every item label with { items: true }', () => {
    const libraries = listLibraries({ items: true });
    for (const library of libraries) expect(library.items).toHaveLength(library.count);
    const labels = (id: string) => libraries.find((library) => library.id === id)?.items ?? [];
    expect(labels('aws')).toContain('Amazon S3');
    expect(labels('databases')).toContain('PostgreSQL');
    expect(labels('kubernetes')).toEqual(expect.arrayContaining(['Pod', 'Deployment', 'Service', 'Ingress', 'StatefulSet']));
    expect(labels('generic')).toEqual(expect.arrayContaining(['Server', 'User', 'Browser', 'Mobile', 'Queue', 'Cache', 'Lock', 'Cloud']));
  });

  it('gives labels unique within their library, so refs are unambiguous', () => {
    for (const { items } of iconCatalog().libraries) {
      const folded = items.map((item) => item.label.toLowerCase());
      expect(new Set(folded).size).toBe(folded.length);
    }
  });

  it('labels items as people name them, not as package slugs', () => {
    for (const item of iconCatalog().items) expect(item.label, item.ref).not.toMatch(/^\s|\s$|[-_]{2}|^(aws|azure|gcp|k8s)-/);
  });
});

describe('getIcon', () => {
  it('returns the sanitised SVG with a viewBox', () => {
    const icon = getIcon('kubernetes/Pod');
    expect(icon).toMatchObject({ library: 'kubernetes', label: 'Pod', ref: 'kubernetes/Pod' });
    expect(icon?.svg).toMatch(/^<svg [^>]*viewBox="[\d.]+ [\d.]+ [\d.]+ [\d.]+"/);
  });

  it('accepts { library, label } and any case', () => {
    expect(getIcon({ library: 'databases', label: 'PostgreSQL' })?.ref).toBe('databases/PostgreSQL');
    expect(getIcon('AWS/amazon s3')?.ref).toBe('aws/Amazon S3');
  });

  it('returns undefined for an unknown ref', () => {
    expect(getIcon('aws/S4')).toBeUndefined();
    expect(getIcon('nope')).toBeUndefined();
    expect(resolveIconRef({ library: 'generic', label: '' })).toBeUndefined();
  });

  it('serves every icon of every library as a sanitised SVG', () => {
    const broken = iconCatalog().items.filter((item) => !/^<svg [^>]*viewBox="/.test(getIcon(item.ref)?.svg ?? ''));
    expect(broken.map((item) => item.ref)).toEqual([]);
  });
});
