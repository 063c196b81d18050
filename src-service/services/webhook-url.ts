// spec §6 "URL requirements" and DESIGN.md §3/§4: the rules a notification URL must meet. The text rules run
// when the URL is saved (and again before each attempt); the resolved-address rule runs at each delivery
// attempt, because a public name may point somewhere private later (or only after saving).
import ipaddr from 'ipaddr.js';
import { embeddedIpv4 } from '../../src-shared/ipv4-in-ipv6.ts';

export type WebhookUrlRule =
  | 'not_a_url'
  | 'https_only'
  | 'no_credentials'
  | 'no_ip_literal'
  | 'no_localhost'
  | 'no_private_hostname'
  | 'private_address';

export type WebhookUrlVerdict =
  /** `loopback`: an explicit loopback URL accepted only because allow_loopback_webhooks is on. */
  | { ok: true; url: URL | null; loopback: boolean }
  /** `detail` is English; `detailZh` is the same fact in Chinese (DESIGN.md §3 "Language": messages follow Accept-Language). */
  | { ok: false; rule: WebhookUrlRule; detail: string; detailZh: string };

/** Top-level names that never reach the public internet (RFC 6761/6762, RFC 8375, common LAN suffixes). */
const PRIVATE_SUFFIXES = [
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'home.arpa',
  'corp',
  'private',
  'test',
  'invalid',
  'example',
  'arpa',
];

/** The host as written in the URL text (before the URL parser normalises `2130706433` to `127.0.0.1`). */
function rawHost(text: string): string {
  const match = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(text.trim());
  const authority = match?.[1] ?? '';
  const afterAt = authority.slice(authority.lastIndexOf('@') + 1);
  if (afterAt.startsWith('[')) return afterAt.slice(0, afterAt.indexOf(']') + 1);
  const colon = afterAt.lastIndexOf(':');
  return colon >= 0 ? afterAt.slice(0, colon) : afterAt;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === 'localhost';
}

function isIpLiteral(hostname: string): boolean {
  // The WHATWG parser turns every IPv4 spelling (decimal integer, hex, octal, short forms) into dotted quad
  // and keeps IPv6 in brackets, so these two checks cover "IP literal of any kind".
  return hostname.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(hostname);
}

/**
 * Checks the text of a webhook URL. `""` is allowed (it means "send nothing"). With `allowLoopback`,
 * `http(s)://127.0.0.1:<port>/…` and `http(s)://localhost:<port>/…` are accepted as well (DESIGN.md §3).
 */
export function checkWebhookUrlText(text: string, options: { allowLoopback: boolean }): WebhookUrlVerdict {
  if (text === '') return { ok: true, url: null, loopback: false };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, rule: 'not_a_url', detail: `${JSON.stringify(text)} is not an absolute URL`, detailZh: `${JSON.stringify(text)} 不是完整的绝对地址` };
  }
  if (text.trim() !== text) {
    return { ok: false, rule: 'not_a_url', detail: 'the URL has leading or trailing whitespace', detailZh: '地址首尾不能有空白字符' };
  }

  if (url.username !== '' || url.password !== '') {
    return { ok: false, rule: 'no_credentials', detail: 'the URL must not carry a username or password', detailZh: '地址中不能包含用户名或密码' };
  }
  // URL normalises the host: lower case, IDN mapped (ｌｏｃａｌｈｏｓｔ → localhost); a trailing dot is the same name.
  const hostname = url.hostname.replace(/\.$/, '');

  // Only the loopback URLs DESIGN.md §3 names, spelled as it names them (`http://2130706433/` is 127.0.0.1 too but
  // stays an IP literal), over http or https (a receiver with a development certificate; issue 27).
  const loopbackScheme = url.protocol === 'http:' || url.protocol === 'https:';
  if (options.allowLoopback && loopbackScheme && isLoopbackHost(hostname) && isLoopbackHost(rawHost(text).toLowerCase())) {
    return { ok: true, url, loopback: true };
  }
  if (url.protocol !== 'https:') {
    const scheme = url.protocol.replace(/:$/, '');
    return { ok: false, rule: 'https_only', detail: `the scheme is ${scheme}; only https is allowed`, detailZh: `协议为 ${scheme}，只允许 https` };
  }
  if (hostname === '') return { ok: false, rule: 'not_a_url', detail: 'the URL has no host', detailZh: '地址中没有主机名' };
  if (isIpLiteral(hostname)) {
    const written = rawHost(text);
    const spelledOtherwise = written !== '' && written.toLowerCase() !== hostname;
    const detail = spelledOtherwise
      ? `the host ${written} is the IP address ${hostname}; IP literals are not allowed`
      : `the host ${hostname} is an IP address; IP literals are not allowed`;
    const detailZh = spelledOtherwise
      ? `主机 ${written} 即 IP 地址 ${hostname}，不允许使用 IP 地址`
      : `主机 ${hostname} 是 IP 地址，不允许使用 IP 地址`;
    return { ok: false, rule: 'no_ip_literal', detail, detailZh };
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    return { ok: false, rule: 'no_localhost', detail: `the host ${hostname} is localhost`, detailZh: `主机 ${hostname} 是本机（localhost）` };
  }
  if (!hostname.includes('.')) {
    return {
      ok: false,
      rule: 'no_private_hostname',
      detail: `the host ${hostname} is a single-label name that only resolves on a private network`,
      detailZh: `主机 ${hostname} 是单段名称，只能在内网解析`,
    };
  }
  const suffix = PRIVATE_SUFFIXES.find((s) => hostname === s || hostname.endsWith(`.${s}`));
  if (suffix !== undefined) {
    return {
      ok: false,
      rule: 'no_private_hostname',
      detail: `the host ${hostname} ends in .${suffix}, a private name`,
      detailZh: `主机 ${hostname} 以 .${suffix} 结尾，属于内网名称`,
    };
  }
  return { ok: true, url, loopback: false };
}

/**
 * The resolved-address rule (spec §6 "no private hostnames"): every address a name resolves to must be
 * public unicast; loopback, private, link-local, unique-local, CGNAT, multicast, reserved, and
 * IPv4-mapped/translated forms of those are refused.
 */
export function checkResolvedAddress(address: string): { ok: true } | { ok: false; rule: 'private_address'; detail: string } {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // IPv4-mapped and IPv4-compatible forms (::ffff:10.0.0.1, ::7f00:1) are judged by the IPv4 address they carry.
    parsed = ipaddr.process(embeddedIpv4(address) ?? address.replace(/%.*$/, ''));
  } catch {
    return { ok: false, rule: 'private_address', detail: `the resolved address ${address} is not an IP address` };
  }
  const range = parsed.range();
  if (range === 'unicast') return { ok: true };
  return { ok: false, rule: 'private_address', detail: `the host resolves to ${address} (${range}), which is not a public address` };
}
