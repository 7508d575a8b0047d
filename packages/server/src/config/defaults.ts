import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password of 20 characters from an unambiguous alphabet (~113 bits). */
export function randomPassword(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/**
 * The config `npm start` writes when there is none: every directive carries a sentence saying what
 * it does, and the admin password is random — Sluice never ships a default password.
 */
export function defaultConfigText(password: string): string {
  return `# Sluice config. The server keeps it in sync with the console: edits made there are written
# here, and comments like this one are kept. The reference is docs/config.md.

# HTTP port(s) for the console, the API and HTTP playback (HLS, DASH, MPEG-TS).
http 8080;

# Port RTMP publishers and players connect to.
rtmp 1935;

# Login and password of the administrator (console and API). Change the password here or in the console.
edit_auth admin ${password};

# Two demo streams on the built-in test source (a moving test pattern with a tone, H.264 and AAC),
# so there is something live to watch at once: http://localhost:8080/demo1/index.m3u8.
# \`static true\` keeps a stream running without viewers. Delete these when you add your own.
stream demo1 {
  url test://;
  static true;
}
stream demo2 {
  url test://?tone=440;
  static true;
}

# A publishing location: whatever an encoder publishes to rtmp://HOST:1935/live/NAME appears as
# the stream live/NAME, playable at http://HOST:8080/live/NAME/index.m3u8.
live live {
}
`;
}
