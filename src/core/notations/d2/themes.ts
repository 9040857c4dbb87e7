/**
 * D2's light themes (`vars: { d2-config: { theme-id: N } }`): the colours its tokens stand for (N1…N7 neutrals, B1…B6
 * base, AA/AB accents), in the order of `THEME_TOKENS`. Taken from terrastruct/d2 `d2themes/d2themescatalog` (MPL-2.0) at
 * 2446e24. The default theme (0) is not here: with no theme chosen, shapes take our colours by role. Dark themes (2xx)
 * are not either: they colour a dark page, and ours is white.
 */
const THEME_TOKENS = ['N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'AA2', 'AA4', 'AA5', 'AB4', 'AB5'] as const;

const PALETTES: Record<number, string> = {
  1: '#0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #ffffff #0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #676c7e #cfd2dd #dee1eb #cfd2dd #dee1eb', // Neutral Grey
  3: '#0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #ffffff #000e3d #234cda #6b8afb #a6b8f8 #d2dbfd #e7eaff #5829dc #b4aef8 #e4dbff #7fdbf8 #c3f0ff', // Flagship Terrastruct
  4: '#0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #ffffff #000536 #0f66b7 #4393dd #87bff3 #bcddfb #e5f3ff #076f6f #77dede #c3f8f8 #c1a2f3 #dacefb', // Cool Classics
  5: '#0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #ffffff #000536 #0f66b7 #4393dd #87bff3 #bcddfb #e5f3ff #7639c5 #c1a2f3 #dacefb #ea99c6 #ffdef1', // Mixed Berry Blue
  6: '#0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #ffffff #170034 #7639c5 #8f70d1 #c1a2f3 #dacefb #f2edff #0f66b7 #87bff3 #bcddfb #ea99c6 #ffdaef', // Grape Soda
  7: '#0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #ffffff #170034 #7639c5 #8f70d1 #d0b9f5 #e7deff #f4f0ff #0f66b7 #87bff3 #bcddfb #92e3e3 #d7f5f5', // Aubergine
  8: '#0a0f25 #676c7e #9499ab #cfd2dd #dee1eb #eef1f8 #ffffff #010e31 #173688 #5679d4 #84a1ec #c8d6f9 #e5edff #048e63 #a6e2d0 #caf2e6 #ffda90 #fff0d1', // Colorblind Clear
  100: '#170206 #535152 #787777 #cccaca #dfdcdc #ecebeb #ffffff #1e1303 #55452f #9a876c #c9b9a1 #e9dbca #faf1e6 #d35f0a #faba8a #ffe0c7 #84a1ec #d5e0fd', // Vanilla Nitro Cola
  101: '#170206 #535152 #787777 #cccaca #dfdcdc #ecebeb #ffffff #311602 #d35f0a #f18f47 #faba8a #ffe0c7 #fff6ef #13a477 #a6e2d0 #caf2e6 #feec8c #fff8cf', // Orange Creamsicle
  102: '#170206 #535152 #787777 #cccaca #dfdcdc #ecebeb #ffffff #31021d #9b1a48 #d2517f #ea99b6 #ffdae7 #fcedf2 #d35f0a #faba8a #ffe0c7 #ffe767 #fff2aa', // Shirley Temple
  103: '#170206 #535152 #787777 #cccaca #dfdcdc #ecebeb #ffffff #1e1303 #55452f #9a876c #c9b9a1 #e9dbca #faf1e6 #d35f0a #faba8a #ffe0c7 #ffe767 #fff2aa', // Earth Tones
  104: '#170206 #535152 #787777 #cccaca #dfdcdc #ecebeb #ffffff #023324 #048e63 #49bc99 #a6e2d0 #caf2e6 #ebfdf7 #d35f0a #faba8a #ffe0c7 #c9b9a1 #e9dbca', // Everglade Green
  105: '#170206 #535152 #787777 #cccaca #dfdcdc #ecebeb #ffffff #312102 #df9c18 #fdc659 #ffda90 #fff0d1 #fff7e7 #55452f #c9b9a1 #e9dbca #faba8a #ffe0c7', // Buttered Toast
  300: '#000410 #0000b8 #9499ab #cfd2dd #c3def3 #eef1f8 #ffffff #000410 #0000e4 #5aa4dc #e7e9ee #f5f6f9 #ffffff #008566 #45bba5 #7accbd #f1c759 #f9e088', // Terminal
  301: '#000410 #000410 #9499ab #ffffff #ffffff #eef1f8 #ffffff #000410 #000410 #ffffff #e7e9ee #f5f6f9 #ffffff #6d7284 #f5f6f9 #ffffff #f5f6f9 #ffffff', // Terminal Grayscale
  302: '#170206 #6f0019 #ffffff #e07088 #d2b098 #ffffff #ffffff #170206 #a62543 #e07088 #f3e0d2 #faf1e6 #fffbf8 #0a4ea6 #3182cd #68a8e4 #e07088 #f19cae', // Origami
  303: '#0f5eaa #707070 #ffffff #073b6f #999999 #ffffff #ffffff #073b6f #08427b #3c7fc0 #438dd5 #8a8a8a #999999 #0f5eaa #707070 #f5f5f5 #e1e1e1 #f0f0f0', // C4
};

/** The colour a theme token stands for in the author's chosen theme; undefined with no such theme or token. */
export function themeColor(themeId: number | null | undefined, token: string): string | undefined {
  const palette = themeId === null || themeId === undefined ? undefined : PALETTES[themeId];
  const at = (THEME_TOKENS as readonly string[]).indexOf(token);
  return palette === undefined || at < 0 ? undefined : palette.split(' ')[at];
}
