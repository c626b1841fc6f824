// rye:signed:2026-11-22T11:57:12Z:36cc862e80a369819e690a46b455c74a984d02a0953a4a2b37290659e22fd385:w8yGLrMGIPwKzWd7MX9EL7Fp0OyHR9JoYQvzO3QYox4XoBTgY-jq03MF2RWQeQjSs8uYN4isk9HpMEJLDdGsDQ:cac8635136c7a58a
// .ai/tools/text/base64_codec.ts

export const __version__ = "1.0.0";
export const __tool_type__ = "javascript";
export const __executor_id__ = "rye/core/runtimes/node/node";
export const __category__ = "text";
export const __tool_description__ = "Encode or decode UTF-8 text as Base64, Base64url or hex";

export const CONFIG_SCHEMA = {
  type: "object",
  properties: {
    text: { type: "string", description: "Text to encode, or the encoded string to decode" },
    mode: { type: "string", enum: ["encode", "decode"], description: "Direction" },
    encoding: { type: "string", enum: ["base64", "base64url", "hex"], default: "base64", description: "Encoding (default base64)" },
  },
  required: ["text", "mode"],
};

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function utf8Encode(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

function utf8Decode(bytes: number[]): string {
  let s = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const n = b < 0x80 ? 1 : b >> 5 === 6 ? 2 : b >> 4 === 14 ? 3 : 4;
    let c = n === 1 ? b : b & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) c = (c << 6) | (bytes[i + k] & 63);
    s += String.fromCodePoint(c);
    i += n;
  }
  return s;
}

function toBase64(bytes: number[], url: boolean): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : "=";
    out += i + 2 < bytes.length ? ALPHABET[n & 63] : "=";
  }
  return url ? out.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : out;
}

function fromBase64(s: string): number[] {
  const clean = s.replace(/-/g, "+").replace(/_/g, "/").replace(/[\s=]/g, "");
  if (/[^A-Za-z0-9+/]/.test(clean)) throw new Error("not base64");
  const out: number[] = [];
  let buf = 0;
  let bits = 0;
  for (const ch of clean) {
    buf = (buf << 6) | ALPHABET.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buf >> bits) & 0xff);
    }
  }
  return out;
}

function main(params: Record<string, unknown>) {
  const text = String(params.text ?? "");
  const encoding = String(params.encoding ?? "base64");
  try {
    if (params.mode === "encode") {
      const bytes = utf8Encode(text);
      const output = encoding === "hex" ? bytes.map((b) => b.toString(16).padStart(2, "0")).join("") : toBase64(bytes, encoding === "base64url");
      return { success: true, output };
    }
    if (encoding === "hex") {
      if (!/^([0-9a-fA-F]{2})*$/.test(text)) return { success: false, error: "not hex" };
      return { success: true, output: utf8Decode(text.match(/../g)?.map((h) => parseInt(h, 16)) ?? []) };
    }
    return { success: true, output: utf8Decode(fromBase64(text)) };
  } catch (e) {
    return { success: false, error: String((e as Error).message ?? e) };
  }
}
export default main;
