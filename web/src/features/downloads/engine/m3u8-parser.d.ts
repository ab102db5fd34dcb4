// The parts of m3u8-parser's manifest (videojs, parse only; docs/decisions/0960-offline-downloads.md) the downloader reads.
declare module 'm3u8-parser' {
  export interface M3u8Key {
    method: string;
    uri?: string;
    iv?: Uint32Array;
  }
  export interface M3u8ByteRange {
    length: number;
    offset: number;
  }
  export interface M3u8Segment {
    uri: string;
    duration: number;
    discontinuity?: boolean;
    key?: M3u8Key;
    map?: { uri: string; byterange?: M3u8ByteRange; key?: M3u8Key };
    byterange?: M3u8ByteRange;
  }
  export interface M3u8Variant {
    uri: string;
    attributes: {
      BANDWIDTH?: number;
      'AVERAGE-BANDWIDTH'?: string | number;
      RESOLUTION?: { width: number; height: number };
      CODECS?: string;
      AUDIO?: string;
      SUBTITLES?: string;
      'FRAME-RATE'?: number;
    };
  }
  export interface M3u8Rendition {
    default?: boolean;
    autoselect?: boolean;
    forced?: boolean;
    language?: string;
    uri?: string;
  }
  export interface M3u8Manifest {
    allowCache?: boolean;
    endList?: boolean;
    playlistType?: string;
    mediaSequence?: number;
    discontinuitySequence?: number;
    targetDuration?: number;
    version?: number;
    segments: M3u8Segment[];
    playlists?: M3u8Variant[];
    mediaGroups?: Record<string, Record<string, Record<string, M3u8Rendition>>>;
  }
  export class Parser {
    manifest: M3u8Manifest;
    push(chunk: string): void;
    end(): void;
    on(event: 'warn' | 'info', listener: (e: { message: string }) => void): void;
  }
}
