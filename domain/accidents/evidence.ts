/**
 * Evidence files of an accident case (issue 19, accidentPublicity:upload): photos, dash-cam video and
 * documents. The kind is read from the first bytes, never from the name: a text file named .jpg is refused.
 */
export const EVIDENCE_KINDS = ['jpeg', 'png', 'mp4', 'pdf'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

export const EVIDENCE_MIME: Record<EvidenceKind, string> = { jpeg: 'image/jpeg', png: 'image/png', mp4: 'video/mp4', pdf: 'application/pdf' };

/** One file: a minute of 1080p dash-cam H.264 is ≈ 40 MB; documents and photos are far smaller. */
export const EVIDENCE_MAX_BYTES = 50 * 1024 * 1024;
/** Files of one case. */
export const EVIDENCE_FILES_MAX = 20;
/** Bytes read to decide the kind. */
export const EVIDENCE_SNIFF_BYTES = 12;

export function sniffEvidence(head: Uint8Array): EvidenceKind | null {
  const b = (i: number) => head[i] ?? -1;
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpeg';
  if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47 && b(4) === 0x0d && b(5) === 0x0a && b(6) === 0x1a && b(7) === 0x0a) return 'png';
  // ISO base media: a box size, then 'ftyp' at offset 4.
  if (b(4) === 0x66 && b(5) === 0x74 && b(6) === 0x79 && b(7) === 0x70) return 'mp4';
  if (b(0) === 0x25 && b(1) === 0x50 && b(2) === 0x44 && b(3) === 0x46 && b(4) === 0x2d) return 'pdf';
  return null;
}
