import { inflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import { enrollment, newTotpSecret } from '../../../src/identity/mfa/totp';

/** An 8-bit grayscale PNG's rows of pixels (filter types none and up, the ones the enrollment's image may use). */
function grayRows(png: Buffer): number[][] {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  let width = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      expect([data[8], data[9]]).toEqual([8, 0]); // bit depth 8, colour type 0 (grayscale)
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rows: number[][] = [];
  for (let at = 0; at < raw.length; at += width + 1) {
    const filter = raw[at]!;
    const above = rows.at(-1) ?? new Array<number>(width).fill(0);
    expect([0, 2]).toContain(filter);
    rows.push([...raw.subarray(at + 1, at + 1 + width)].map((v, x) => (filter === 2 ? (v + above[x]!) & 0xff : v)));
  }
  return rows;
}

describe('the TOTP enrollment', () => {
  it("shows the otpauth URI's QR code: each module dark exactly where the code sets it, with a 4-module quiet zone", async () => {
    const { otpauthUri, qrCode } = await enrollment(newTotpSecret(), 'ann@example.test');
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Delivery%20Platform:ann%40example\.test\?/);
    const prefix = 'data:image/png;base64,';
    expect(qrCode.startsWith(prefix)).toBe(true);
    const rows = grayRows(Buffer.from(qrCode.slice(prefix.length), 'base64'));
    const { modules } = QRCode.create(otpauthUri, { errorCorrectionLevel: 'M' });
    const scale = rows.length / (modules.size + 8);
    expect(scale).toBe(4);
    const pixel = (x: number, y: number) => rows[(y + 4) * scale + scale / 2]![(x + 4) * scale + scale / 2]!;
    const mismatched: string[] = [];
    for (let y = 0; y < modules.size; y++) {
      for (let x = 0; x < modules.size; x++) {
        if (pixel(x, y) < 128 !== Boolean(modules.get(y, x))) mismatched.push(`${x},${y}`);
      }
    }
    expect(mismatched).toEqual([]);
    // The quiet zone around the code is white.
    expect(rows[0]!.every((v) => v === 255)).toBe(true);
    expect(rows.at(-1)!.every((v) => v === 255)).toBe(true);
  });
});
