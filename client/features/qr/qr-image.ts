/**
 * QR code images of a booking link, drawn in the browser by the `qrcode` library (no third-party
 * image service; ADR 0015), and the print view. Only the QR page imports this module, so the
 * library stays in that route's chunk.
 */
import QRCode from 'qrcode';
import { MSG } from '../../../shared/messages';

/** Side of the on-screen QR image in CSS pixels. */
export const QR_SIZE = 400;
/** Side of the downloaded PNG in pixels: sharper when printed large (ADR 0015). */
export const QR_DOWNLOAD_SIZE = 1024;
/** Printing starts 500 ms after the print view opens. */
export const PRINT_DELAY_MS = 500;

const OPTIONS = { margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } } as const;

/** The booking link of `slug` on `origin`: '{origin}/{slug}'. */
export function bookingLink(origin: string, slug: string): string {
  return `${origin.replace(/\/+$/, '')}/${encodeURIComponent(slug)}`;
}

/** A PNG data URL of the QR code of `text`, `size` pixels square. */
export function qrDataUrl(text: string, size: number = QR_SIZE): Promise<string> {
  return QRCode.toDataURL(text, { ...OPTIONS, width: size, type: 'image/png' });
}

/** A PNG blob of the QR code of `text`, `size` pixels square. Rejects when the browser cannot encode it. */
export async function qrPngBlob(text: string, size: number = QR_DOWNLOAD_SIZE): Promise<Blob> {
  const canvas = document.createElement('canvas');
  await QRCode.toCanvas(canvas, text, { ...OPTIONS, width: size });
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The QR code image could not be created.'))),
      'image/png',
    );
  });
}

/** Saves `blob` as `fileName` through a temporary link (the browser's download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Opens the print view in a new window: the business name, the QR code, 'Scan to book an
 * appointment' and the link; printing starts after 500 ms. Returns false when the browser blocked
 * the window (the caller shows 'Print Failed').
 */
export function openPrintView(details: { businessName: string; link: string; imageUrl: string }): boolean {
  const win = window.open('', '_blank', 'width=640,height=820');
  if (!win) return false;
  const doc = win.document;
  doc.title = `${details.businessName} · QR code`;
  const style = doc.createElement('style');
  style.textContent = [
    'body{font-family:Arial,Helvetica,sans-serif;color:#111;text-align:center;margin:0;padding:48px 24px}',
    'h1{font-size:28px;margin:0 0 24px}',
    'img{width:320px;height:320px;image-rendering:pixelated}',
    '.scan{font-size:20px;font-weight:bold;margin:24px 0 8px}',
    '.link{font-size:15px;color:#333;word-break:break-all;margin:0}',
    '@page{margin:16mm}',
  ].join('');
  doc.head.appendChild(style);
  const heading = doc.createElement('h1');
  heading.textContent = details.businessName;
  const image = doc.createElement('img');
  image.src = details.imageUrl;
  image.alt = `QR code for ${details.link}`;
  const scan = doc.createElement('p');
  scan.className = 'scan';
  scan.textContent = MSG.qrScanToBook;
  const link = doc.createElement('p');
  link.className = 'link';
  link.textContent = details.link;
  doc.body.replaceChildren(heading, image, scan, link);
  win.setTimeout(() => {
    win.focus();
    win.print();
  }, PRINT_DELAY_MS);
  return true;
}

/** Copies `text` to the clipboard; falls back to selecting `input` and the legacy copy command. */
export async function copyText(text: string, input?: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!input) return false;
    input.focus();
    input.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}
