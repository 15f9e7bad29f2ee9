// Hex geometry of the map, shared by the board and its overlays: axial (q, r), pointy-top
// hexes; centre x = S*sqrt(3)*(q + r/2), y = S*1.5*r.

export const HEX_SIZE = 36;
export const SQRT3 = Math.sqrt(3);

export function hexCenter(q, r, size = HEX_SIZE) {
  return { x: size * SQRT3 * (q + r / 2), y: size * 1.5 * r };
}

export function hexPoints(cx, cy, size) {
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(cx + size * Math.cos(angle)).toFixed(2)},${(cy + size * Math.sin(angle)).toFixed(2)}`);
  }
  return pts.join(' ');
}
