import { useEffect, useState } from 'react';
import { type VietQrTransfer, vietQrPayload } from '../vietqr';

/** The QR modules as one SVG path (a unit square per dark module), from uqr's matrix. */
function modulesPath(data: boolean[][]): string {
  let d = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  return d;
}

/**
 * The VietQR code of a transfer: a banking app scans it and has bank, account, exact amount and note
 * filled in. The encoder (uqr, docs/decisions/0402-vietqr-bank-transfer.md) loads here only, when the
 * bank-transfer page shows. Nothing is drawn when the transfer cannot be encoded (no BIN configured).
 */
export function VietQrCode({ transfer, label }: { transfer: VietQrTransfer | null; label: string }) {
  const [matrix, setMatrix] = useState<{ path: string; size: number; payload: string } | null>(null);
  const payload = (() => {
    if (!transfer) return null;
    try {
      return vietQrPayload(transfer);
    } catch {
      return null;
    }
  })();

  useEffect(() => {
    if (!payload) return;
    let live = true;
    void import('uqr').then(({ encode }) => {
      if (!live) return;
      const qr = encode(payload, { ecc: 'M', border: 4 });
      setMatrix({ path: modulesPath(qr.data), size: qr.size, payload });
    });
    return () => {
      live = false;
    };
  }, [payload]);

  if (!payload) return null;
  const ready = matrix?.payload === payload;
  return (
    <figure className="vietqr" data-testid="vietqr" data-payload={payload}>
      {ready ? (
        <svg
          viewBox={`0 0 ${matrix.size} ${matrix.size}`}
          role="img"
          aria-label={label}
          shapeRendering="crispEdges"
          className="vietqr-code"
        >
          <rect width={matrix.size} height={matrix.size} fill="#fff" />
          <path d={matrix.path} fill="#000" />
        </svg>
      ) : (
        <span className="vietqr-code vietqr-loading" aria-hidden="true" />
      )}
      <figcaption>Quét mã VietQR bằng ứng dụng ngân hàng: số tài khoản, số tiền và nội dung đã được điền sẵn.</figcaption>
    </figure>
  );
}
