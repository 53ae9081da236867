import { domainToASCII } from "node:url";
import { EngineError } from "../errors.js";
import { canonicalIp, isPrivateAddress } from "./addresses.js";

// A project's egress policy as data (issue 31, item 3; DESIGN "Network is a list"). The list
// names hosts (and ports), never addresses an agent gives: the egress proxy matches the name an
// agent asked for, then checks every address it resolves to (`isPrivateAddress`), so a public
// name pointing at 127.0.0.1 is still refused unless an admin listed a private entry.

import type { NetworkMode } from "./mode.js";

/**
 * One allowed destination: a host name (lower-case, no trailing dot; `*.example.com` matches
 * subdomains only) or an IP literal (canonical, IPv6 without brackets), and a port (null = 80 and 443).
 */
export interface HostEntry {
  host: string;
  port: number | null;
}

/** A project's egress policy: its mode, and the hosts an `allowlist` lets through. */
export interface NetworkPolicy {
  mode: NetworkMode;
  hosts: readonly HostEntry[];
}

/** Longest host name DNS can carry (253 characters without the trailing dot). */
const MAX_HOST = 253;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

const invalid = (text: string): EngineError =>
  new EngineError("invalid", "network_host_invalid", { host: text.slice(0, 80) });

/** A DNS name in its lower-case ASCII form, trailing dot removed; null when it is none. */
function hostName(raw: string): string | null {
  const name = raw.endsWith(".") ? raw.slice(0, -1) : raw;
  if (name === "" || name.length > MAX_HOST) return null;
  // Non-ASCII names are matched as the resolver sees them (punycode).
  const ascii = /^[\x21-\x7e]+$/.test(name) ? name.toLowerCase() : domainToASCII(name);
  if (!ascii || ascii.length > MAX_HOST) return null;
  const labels = ascii.split(".");
  if (!labels.every((l) => LABEL.test(l))) return null;
  // A numeric last label is an IPv4 spelling (127.1, 0x7f.1) that resolvers read as an address.
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(labels[labels.length - 1] as string)) return null;
  return ascii;
}

/** The host part of an entry: `*.name`, a name, or an IP literal; null when it is none of them. */
function entryHost(raw: string): string | null {
  if (raw.startsWith("*.")) {
    const rest = hostName(raw.slice(2));
    return rest ? `*.${rest}` : null;
  }
  return canonicalIp(raw) ?? hostName(raw);
}

function portOf(text: string, whole: string): number {
  if (!/^\d{1,5}$/.test(text)) throw invalid(whole);
  const port = Number(text);
  if (port < 1 || port > 65535) throw new EngineError("invalid", "network_port_invalid", { port: text });
  return port;
}

/** `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 literal, split. */
function splitHostPort(text: string): { host: string; port: string | null } {
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
  if (bracketed) return { host: `[${bracketed[1]}]`, port: bracketed[2] ?? null };
  const colons = text.split(":").length - 1;
  if (colons === 1) {
    const at = text.indexOf(":");
    return { host: text.slice(0, at), port: text.slice(at + 1) };
  }
  return { host: text, port: null }; // a bare IPv6 literal has several colons and no port
}

/** What is left of a URL (`https://host:port/`): its host and port, refusing a path, a user or a query. */
function fromUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(text);
  }
  const bare = !url.username && !url.password && !url.search && !url.hash;
  if (!bare || (url.pathname !== "/" && url.pathname !== "") || /@/.test(text)) throw invalid(text);
  // Only the port the person typed: https://x is x (80 and 443), not x:443 alone.
  const typed = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[^\]]*\]|[^/:?#]*)(:\d+)?/i.exec(text)?.[1];
  return `${url.hostname}${typed ?? ""}`;
}

/**
 * One entry as people type it: `registry.npmjs.org`, `*.example.com`, `10.0.0.5:8080`,
 * `[fd00::1]:443`, or a URL with a scheme reduced to its host and port. Throws
 * EngineError("invalid") for a path, a user, an empty or over-long name or a bad port.
 */
export function parseHostEntry(text: string): HostEntry {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.length > MAX_HOST + 8) throw invalid(trimmed);
  const plain = trimmed.includes("://") ? fromUrl(trimmed) : trimmed;
  if (/[/@?#\s\\%]/.test(plain)) throw invalid(trimmed);
  const { host, port } = splitHostPort(plain);
  const name = entryHost(host);
  if (name === null) throw invalid(trimmed);
  return { host: name, port: port === null ? null : portOf(port, trimmed) };
}

/** An entry as it is stored and shown; `parseHostEntry` reads it back to the same entry. */
export function formatHostEntry(e: HostEntry): string {
  const host = e.host.includes(":") ? `[${e.host}]` : e.host;
  return e.port === null ? host : `${host}:${e.port}`;
}

/** The host an agent asked for, as entries spell hosts (lower-case, no trailing dot, canonical IP). */
function requestedHost(host: string): string | null {
  const trimmed = host.trim();
  return canonicalIp(trimmed) ?? hostName(trimmed);
}

const portMatches = (entry: HostEntry, port: number): boolean =>
  entry.port === null ? port === 80 || port === 443 : entry.port === port;

/**
 * The entry letting an agent reach `host:port`: in `open` mode a synthetic entry for any host, in
 * `off` none; in `allowlist` an exact name, a wildcard's subdomain or the identical IP literal,
 * with its port (null: 80 and 443). Names only: what they resolve to is the proxy's to check.
 */
export function matchHost(policy: NetworkPolicy, host: string, port: number): HostEntry | null {
  if (policy.mode === "off") return null;
  const wanted = requestedHost(host);
  if (wanted === null || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  if (policy.mode === "open") return { host: wanted, port };
  const fitting = policy.hosts.filter((e) => portMatches(e, port));
  const exact = fitting.find((e) => e.host === wanted);
  if (exact) return exact;
  if (canonicalIp(wanted) !== null) return null; // a wildcard names DNS names, never addresses
  return fitting.find((e) => e.host.startsWith("*.") && wanted.endsWith(e.host.slice(1))) ?? null;
}

/**
 * Whether an entry lets agents reach a private address (an IP literal that is one, `localhost`,
 * `*.localhost`): only admins may list such entries.
 */
export function isPrivateEntry(e: HostEntry): boolean {
  const host = e.host.startsWith("*.") ? e.host.slice(2) : e.host;
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return canonicalIp(host) !== null && isPrivateAddress(host);
}
