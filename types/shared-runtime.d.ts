// src-shared may use only what every runtime of ours has: Web Crypto, the text codecs and timers.
// This file is the whole "lib" tsconfig.shared.json gives it, so a Node or DOM API fails to type-check.
export {};

declare global {
  interface SharedHmacKey {
    readonly type: string;
  }
  interface SharedSubtleCrypto {
    importKey(
      format: 'raw',
      keyData: Uint8Array<ArrayBuffer>,
      algorithm: { name: 'HMAC'; hash: 'SHA-256' },
      extractable: boolean,
      keyUsages: Array<'sign'>,
    ): Promise<SharedHmacKey>;
    sign(algorithm: 'HMAC', key: SharedHmacKey, data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
  }
  var crypto: {
    getRandomValues<T extends Uint8Array>(array: T): T;
    randomUUID(): string;
    subtle: SharedSubtleCrypto;
  };
  function setTimeout(handler: () => void, ms: number): unknown;
  class TextEncoder {
    encode(input?: string): Uint8Array<ArrayBuffer>;
  }
  class URL {
    constructor(url: string, base?: string);
    readonly protocol: string;
    readonly username: string;
    readonly password: string;
    readonly hostname: string;
    readonly port: string;
    readonly pathname: string;
    readonly search: string;
    readonly href: string;
  }
  class TextDecoder {
    constructor(label?: string, options?: { fatal?: boolean });
    decode(input?: Uint8Array): string;
  }
}
