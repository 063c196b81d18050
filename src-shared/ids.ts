// DESIGN.md §3 "Ids": prefixes and lengths, characters [A-Za-z0-9] from a cryptographic random source.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random [A-Za-z0-9]{length} without modulo bias (rejection sampling over crypto.getRandomValues). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  // getRandomValues fills at most 65,536 bytes per call.
  const buffer = new Uint8Array(Math.min(length * 2, 65_536));
  while (out.length < length) {
    crypto.getRandomValues(buffer);
    for (const byte of buffer) {
      // 248 = 62 × 4: bytes at or above it would favour the first letters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const ID_SHAPES = {
  turn: { prefix: 't_', length: 10, pattern: /^t_[A-Za-z0-9]{10}$/ },
  session: { prefix: 's_', length: 10, pattern: /^s_[A-Za-z0-9]{10}$/ },
  image: { prefix: 'img_', length: 8, pattern: /^img_[A-Za-z0-9]{8}$/ },
  pack: { prefix: 'pk_', length: 8, pattern: /^pk_[A-Za-z0-9]{8}$/ },
  request: { prefix: 'req_', length: 20, pattern: /^req_[A-Za-z0-9]{20}$/ },
  apiKey: { prefix: 'sk_', length: 32, pattern: /^sk_[A-Za-z0-9]{32}$/ },
  webhookSecret: { prefix: 'whsec_', length: 32, pattern: /^whsec_[A-Za-z0-9]{32}$/ },
} as const;

export type IdKind = keyof typeof ID_SHAPES;

export function newId(kind: IdKind): string {
  const shape = ID_SHAPES[kind];
  return shape.prefix + randomAlphanumeric(shape.length);
}

export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === 'string' && ID_SHAPES[kind].pattern.test(value);
}

export const FILENAME_PATTERN = /^[A-Za-z0-9]{8}\.png$/;

export function newFilename(): string {
  return `${randomAlphanumeric(8)}.png`;
}

export function isFilename(value: unknown): value is string {
  return typeof value === 'string' && FILENAME_PATTERN.test(value);
}

export const UUID_V4_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** X-Service-Delivery is a UUID v4 (DESIGN.md §4). */
export function newDeliveryId(): string {
  return crypto.randomUUID();
}
