import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import { searchIcons } from './search.js';
import { SEARCH_QUALITY_TABLE } from './search-quality.js';

describe('searchIcons quality table', () => {
  it.each(SEARCH_QUALITY_TABLE)('$query (vendor $vendor) → $expected', ({ query, vendor, expected }) => {
    expect(searchIcons({ query, vendor, limit: 1 })[0]?.ref).toBe(expected);
  });

  it('covers at least 40 queries', () => {
    expect(SEARCH_QUALITY_TABLE.length).toBeGreaterThanOrEqual(40);
  });
});

describe('searchIcons', () => {
  it('returns library, label and ref as <library>/<Item Label>', () => {
    expect(searchIcons({ query: 's3', limit: 1 })).toEqual([{ library: 'aws', label: 'Amazon S3', ref: 'aws/Amazon S3' }]);
  });

  it('ignores case and word order', () => {
    const top = (query: string) => searchIcons({ query, limit: 1 })[0]?.ref;
    expect(top('LOAD BALANCER')).toBe('generic/Load Balancer');
    expect(top('balancer load')).toBe('generic/Load Balancer');
    expect(top('Engine Kubernetes Google')).toBe('gcp/Google Kubernetes Engine');
  });

  it('prefers the requested vendor for the same words', () => {
    const top = (query: string, vendor?: 'aws' | 'azure' | 'gcp' | 'kubernetes') => searchIcons({ query, vendor, limit: 1 })[0]?.ref;
    expect(top('queue')).toBe('generic/Queue');
    expect(top('queue', 'aws')).toBe('aws/Amazon SQS');
    expect(top('queue', 'azure')).toBe('azure/Storage Queue');
    expect(top('postgres')).toBe('databases/PostgreSQL');
    expect(top('postgres', 'azure')).toBe('azure/Database for PostgreSQL');
    expect(top('postgres', 'gcp')).toBe('gcp/Cloud SQL');
    expect(top('service', 'kubernetes')).toBe('kubernetes/Service');
  });

  it('treats a vendor word in the query as a vendor preference', () => {
    expect(searchIcons({ query: 'aws queue', limit: 1 })[0]?.ref).toBe('aws/Amazon SQS');
    expect(searchIcons({ query: 'k8s secret', limit: 1 })[0]?.ref).toBe('kubernetes/Secret');
  });

  it('tolerates small typos', () => {
    const top = (query: string) => searchIcons({ query, limit: 1 })[0]?.ref;
    expect(top('kubernets')).toBe('kubernetes/Kubernetes');
    expect(top('postgress')).toBe('databases/PostgreSQL');
    expect(top('elasticsearh')).toBe('databases/Elasticsearch');
    expect(top('cloudfromt')).toBe('aws/Amazon CloudFront');
  });

  it('corrects two swapped letters in a word of five letters or more', () => {
    const top = (query: string) => searchIcons({ query, limit: 1 })[0]?.ref;
    expect(top('postgers')).toBe('databases/PostgreSQL');
    expect(top('dokcer')).toBe('brands/Docker');
    expect(top('ngnix')).toBe('brands/NGINX');
    expect(top('kubernetse')).toBe('kubernetes/Kubernetes');
    expect(top('lmabda')).toBe('aws/AWS Lambda');
    // The correction stands for the word: synonyms, kind words and vendor words apply to it.
    expect(top('postgers db')).toBe('databases/PostgreSQL');
    expect(top('amzaon s3')).toBe('aws/Amazon S3');
    expect(searchIcons({ query: 'qeuue', vendor: 'aws', limit: 1 })[0]?.ref).toBe('aws/Amazon SQS');
  });

  it('leaves known words, partly typed words and short words to the ordinary typo search', () => {
    const refs = (query: string) => searchIcons({ query, limit: 10 }).map((result) => result.ref);
    // "boost" and "boots" are both indexed; "trail" starts "Trailforks" (and swaps to the indexed "trial").
    expect(refs('boost')).not.toContain('brands/Boots');
    expect(refs('trail')).not.toContain('gcp/Free Trial');
    // Under five letters a swap is not corrected ("ivm" is not "vm").
    expect(refs('ivm')).toEqual([]);
  });

  it('reads a database kind word after a product as the Databases library, unless a vendor is asked for', () => {
    const top = (query: string, vendor?: 'aws' | 'azure' | 'gcp' | 'kubernetes') => searchIcons({ query, vendor, limit: 1 })[0]?.ref;
    expect(top('Postgres DB')).toBe('databases/PostgreSQL');
    expect(top('postgresql database')).toBe('databases/PostgreSQL');
    expect(top('mysql db')).toBe('databases/MySQL');
    expect(top('Postgres DB', 'azure')).toBe('azure/Database for PostgreSQL');
    expect(top('cosmos db')).toBe('azure/Cosmos DB');
    expect(top('graph db')).toBe('databases/Graph Database');
  });

  it('applies the vendor preference to what a synonym finds, counting a word and its synonyms once', () => {
    const top = (query: string, vendor?: 'aws' | 'azure' | 'gcp' | 'kubernetes') => searchIcons({ query, vendor, limit: 1 })[0]?.ref;
    expect(top('mq')).toBe('generic/Queue');
    expect(top('mq', 'aws')).toBe('aws/Amazon MQ');
    expect(top('aws mq')).toBe('aws/Amazon MQ');
    expect(top('lb', 'aws')).toBe('aws/Elastic Load Balancing');
  });

  it('expands abbreviations and synonyms', () => {
    const top = (query: string, vendor?: 'aws' | 'azure' | 'gcp' | 'kubernetes') => searchIcons({ query, vendor, limit: 1 })[0]?.ref;
    expect(top('pg')).toBe('databases/PostgreSQL');
    expect(top('db')).toBe('databases/Database');
    expect(top('lb')).toBe('generic/Load Balancer');
    expect(top('lb', 'aws')).toBe('aws/Elastic Load Balancing');
    expect(top('mq')).toBe('generic/Queue');
    expect(top('k8s')).toBe('kubernetes/Kubernetes');
    expect(top('hpa')).toBe('kubernetes/Horizontal Pod Autoscaler');
  });

  it('honours the limit, defaults to 10 and rejects a bad one', () => {
    expect(searchIcons({ query: 'storage', limit: 3 })).toHaveLength(3);
    expect(searchIcons({ query: 'storage' })).toHaveLength(10);
    expect(searchIcons({ query: 'storage', limit: 100 }).length).toBeGreaterThan(10);
    for (const limit of [0, 101, 2.5]) {
      expect(() => searchIcons({ query: 'storage', limit })).toThrow(/limit must be an integer between 1 and 100/);
    }
  });

  it('finds nothing for an empty or meaningless query', () => {
    expect(searchIcons({ query: '' })).toEqual([]);
    expect(searchIcons({ query: '  /// ' })).toEqual([]);
    expect(searchIcons({ query: 'qqqqzzzzxxxx' })).toEqual([]);
  });

  it('rejects an unknown vendor with a validation error', () => {
    try {
      searchIcons({ query: 'queue', vendor: 'oracle' as never });
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error) && error.code).toBe('validation_failed');
      expect((error as Error).message).toBe('vendor must be one of aws, azure, gcp, kubernetes, got "oracle"');
    }
  });
});
