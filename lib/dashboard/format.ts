/**
 * Number formatting for people: bytes as KB/MB/GB, counts, percentages, dollars. Bytes are
 * decimal (1 GB = 10^9 bytes), as plans are sold: a 5 GB quota reads "5.00 GB".
 */
export function formatBytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB", "PB"];
  let i = 0;
  let v = n;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en");
}

export function formatPercent(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)} %`;
}

/** US dollars with cents; sub-cent amounts (modeled costs) with enough digits to be seen. */
export function formatUsd(n: number): string {
  const abs = Math.abs(n);
  return `${n < 0 ? "\u2212" : ""}$${abs.toFixed(abs !== 0 && abs < 0.01 ? 6 : 2)}`;
}
