/** `node:net` in the web worker: the IP address tests the certificate generators use (which fail there anyway, crypto.ts). */
const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIPv4(s: string): boolean {
  return V4.test(s);
}

export function isIPv6(s: string): boolean {
  try {
    return s.includes(':') && new URL(`http://[${s}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}
