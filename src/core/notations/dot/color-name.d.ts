// color-name ships no typings: a map from CSS colour keyword to [r, g, b].
declare module 'color-name' {
  const colors: Record<string, [number, number, number]>;
  export default colors;
}
