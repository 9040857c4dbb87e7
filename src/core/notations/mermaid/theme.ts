/**
 * The author's palette from Mermaid's `%%{init: {'themeVariables': {…}}}%%` directive, as CSS declarations laid under
 * every other style (classDefs and `style` lines win), the way Mermaid's themes colour what no class names.
 */
export interface ThemeDeclarations {
  node: string[];
  cluster: string[];
  link: string[];
}

const INIT = /%%\{\s*(?:init|initialize)\s*:\s*(\{[\s\S]*?\})\s*\}%%/;

/** The directive's themeVariables; Mermaid reads the directive leniently, single quotes and all. */
function themeVariables(code: string): Record<string, unknown> {
  const written = INIT.exec(code)?.[1];
  if (written === undefined) return {};
  try {
    const init = JSON.parse(written.replace(/'/g, '"')) as { themeVariables?: unknown };
    return typeof init.themeVariables === 'object' && init.themeVariables !== null ? (init.themeVariables as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The first of Mermaid's names for one colour that the author set (the specific one before the one it derives from), as a declaration. */
function colourOf(variables: Record<string, unknown>) {
  return (property: string, ...names: string[]): string[] => {
    const value = names.map((name) => variables[name]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
    return value === undefined ? [] : [`${property}:${value}`];
  };
}

/** A sequence diagram's participant heads: Mermaid's actor colours, each derived from the theme's main colours when unset. */
export function actorDeclarations(code: string): string[] {
  const colour = colourOf(themeVariables(code));
  return [...colour('fill', 'actorBkg', 'mainBkg', 'primaryColor'), ...colour('stroke', 'actorBorder', 'primaryBorderColor'), ...colour('color', 'actorTextColor', 'primaryTextColor')];
}

export function themeDeclarations(code: string): ThemeDeclarations {
  const colour = colourOf(themeVariables(code));
  return {
    node: [...colour('fill', 'mainBkg', 'primaryColor'), ...colour('stroke', 'nodeBorder', 'primaryBorderColor'), ...colour('color', 'nodeTextColor', 'primaryTextColor')],
    // Mermaid's themes fill a subgraph with the tertiary colour unless clusterBkg is set.
    cluster: [...colour('fill', 'clusterBkg', 'tertiaryColor'), ...colour('stroke', 'clusterBorder', 'tertiaryBorderColor')],
    link: colour('stroke', 'lineColor'),
  };
}
