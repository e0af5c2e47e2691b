/**
 * Reading exactly the files the scan approved. Between the scan and a read (or the copy of an image into
 * the output), a file could be swapped for a symbolic link, or a folder above it for a link elsewhere; a
 * path read then would publish whatever the link points to on the build machine. So a read opens the file
 * without following a final link and checks that what it opened is the very file the scan saw (same
 * device and inode): any swap on the way is refused. Text must also be UTF-8: bytes that are not would be
 * published as U+FFFD without a word, so they are a problem with the line they are on.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';

/** What identifies a file on its device, as the scan saw it. */
export interface FileIdentity {
  dev: number;
  ino: number;
  /** Its size and its latest modification or change time as the scan saw them: a cached read is trusted by them (load-content.ts). */
  size?: number;
  changedMs?: number;
}

/** A file that is no longer the one the scan approved. */
export class FileChangedError extends Error {
  constructor(readonly file: string) {
    super(`${file} changed while the build was reading the content (it is now a link or another file); run the build again`);
  }
}

/** The bytes of `file` under `root`, if it is still the file with `identity`; throws FileChangedError if not. */
export function readApproved(root: string, file: string, identity: FileIdentity): Buffer {
  let fd: number;
  try {
    fd = openSync(path.join(root, file), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    throw new FileChangedError(file);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.dev !== identity.dev || stats.ino !== identity.ino) throw new FileChangedError(file);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Bytes that cannot start or continue a UTF-8 sequence: the offset of the first, or -1. Linear, no decoding. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length; ) {
    const lead = bytes[at]!;
    const length =
      lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || at + length > bytes.length) return at;
    for (let next = 1; next < length; next++) if ((bytes[at + next]! & 0xc0) !== 0x80) return at;
    const second = bytes[at + 1]!;
    // Overlong three- and four-byte forms, UTF-16 surrogates and code points past U+10FFFF.
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f)) return at;
    if ((lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return at;
    at += length;
  }
  return -1;
}

/** Text that is not UTF-8, with the line of its first bad byte. */
export class NotUtf8Error extends Error {
  constructor(readonly line: number) {
    super(`is not UTF-8 text: line ${line} holds bytes that are not UTF-8 (save the file as UTF-8)`);
  }
}

/** The bytes as text; NotUtf8Error when they are not UTF-8. */
export function decodeUtf8(bytes: Buffer): string {
  if (!isUtf8(bytes)) {
    const bad = firstInvalidUtf8(bytes);
    let line = 1;
    for (let at = bytes.indexOf(10); at !== -1 && at < bad; at = bytes.indexOf(10, at + 1)) line++;
    throw new NotUtf8Error(line);
  }
  return bytes.toString('utf8');
}
