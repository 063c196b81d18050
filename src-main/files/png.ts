// The PNG header check: signature, then IHDR with width and height (big-endian) at bytes 16..23.
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngSize(head: Buffer): { width: number; height: number } | null {
  if (head.length < 24 || !head.subarray(0, 8).equals(SIGNATURE) || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}
