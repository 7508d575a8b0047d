import { serverInfo } from '@sluice/api';
import { z } from 'zod';
import { jsonBody, request } from '../../api/http-client.js';

/** Spec 000 §9: the certificate page reloads 1500 ms after a certificate returns. */
export const CERTIFICATE_RELOAD_MS = 1500;
/** Spec 000 §5 and §8, word for word. */
export const IP_ADDRESS_REFUSAL =
  "Can't issue a certificate for IP address. Switch to domain name and reload page";
export const COULD_NOT_OBTAIN = 'Could not obtain certificate';

/** The certificate facts the server shows (server info's `certificate`; never key material). */
export const certificateInfo = serverInfo.shape.certificate.unwrap();
export type CertificateInfo = z.infer<typeof certificateInfo>;

const letsencryptAnswer = z.looseObject({
  cert: certificateInfo,
  files: z.looseObject({ cert: z.string(), key: z.string() }),
});

/**
 * Whether the page was opened by address rather than name (spec 000 §5): a CA validates names,
 * and the name a certificate is for is the one the browser must use. IPv4 dotted quads and IPv6
 * (the URL's hostname keeps its brackets).
 */
export function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[');
}

/** The domain field's names: separated by commas or spaces. */
export const domainsOf = (text: string): string[] => text.split(/[\s,]+/).filter((d) => d !== '');

/** POST /letsencrypt (spec 000 §7, at the root): answers once the certificate is installed, or raises the CA's reason. */
export const requestCertificate = async (domains: string[]) =>
  letsencryptAnswer.parse(await (await request('/letsencrypt', jsonBody({ domains }))).json());
