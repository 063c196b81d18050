// Pieces of a pan/zoom stage: the image drawn at the view's transform on a neutral matte with a hairline frame
// (a white product shot shows where it ends; the frame stays 1 px at every zoom), and the zoom controls.
import { useState } from 'react';
import { useText } from '../../i18n/text.ts';
import { loupeText } from './i18n.ts';
import type { View } from './panZoom.ts';
import type { PanZoom } from './usePanZoom.ts';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where `rect` (content coordinates) lands on the stage under `view`, in whole pixels. */
export function screenRect(rect: Rect, view: View): Rect {
  const x = Math.round(view.x + rect.x * view.s);
  const y = Math.round(view.y + rect.y * view.s);
  return { x, y, w: Math.round(rect.w * view.s), h: Math.round(rect.h * view.s) };
}

export function PannedImage(props: {
  src: string;
  /** A small version shown until the full image has loaded (the gallery's thumbnail, already cached). */
  previewSrc?: string;
  alt: string;
  rect: Rect;
  view: View;
  testId?: string;
  onNaturalSize?: (w: number, h: number) => void;
}) {
  const r = screenRect(props.rect, props.view);
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const loaded = loadedSrc === props.src;
  const place = { transform: `translate(${r.x}px, ${r.y}px)`, width: r.w, height: r.h };
  return (
    <>
      {props.previewSrc && !loaded ? <img className="pz-img pz-preview" src={props.previewSrc} alt="" draggable={false} style={place} /> : null}
      <img
        className={`pz-img ${props.view.s >= 3 ? 'pz-pixels' : ''}`}
        src={props.src}
        alt={props.alt}
        draggable={false}
        style={place}
        data-testid={props.testId}
        data-loaded={loaded}
        onLoad={(e) => {
          setLoadedSrc(props.src);
          props.onNaturalSize?.(e.currentTarget.naturalWidth, e.currentTarget.naturalHeight);
        }}
      />
      <div className="pz-frame" aria-hidden="true" style={{ transform: `translate(${r.x - 1}px, ${r.y - 1}px)`, width: r.w + 2, height: r.h + 2 }} />
    </>
  );
}

export function ZoomBar({ pz, label }: { pz: PanZoom; label?: string }) {
  const lt = useText(loupeText);
  const actual = pz.actual;
  const level = Math.round((pz.view.s / actual) * 100);
  const at = (k: number) => !pz.isFit && Math.abs(pz.view.s - actual * k) < 1e-3;
  return (
    <div className="zoom-bar" role="toolbar" aria-label={label ?? lt('zoomBar')} data-testid="zoom-bar">
      <button type="button" className="zoom-btn" onClick={() => pz.zoomBy(1 / 1.25)} aria-label={lt('zoomOut')} title={`${lt('zoomOut')} (−)`} data-testid="zoom-out">
        −
      </button>
      <output className="zoom-level" aria-label={lt('zoomLevel')} data-testid="zoom-level" data-scale={pz.view.s}>
        {level}%
      </output>
      <button type="button" className="zoom-btn" onClick={() => pz.zoomBy(1.25)} aria-label={lt('zoomIn')} title={`${lt('zoomIn')} (+)`} data-testid="zoom-in">
        +
      </button>
      <span className="zoom-sep" aria-hidden="true" />
      <button type="button" className="zoom-btn zoom-text" onClick={() => pz.fit()} aria-pressed={pz.isFit} title={`${lt('zoomFit')} (Z)`} data-testid="zoom-fit">
        {lt('zoomFit')}
      </button>
      <button type="button" className="zoom-btn zoom-text" onClick={() => pz.zoomTo(actual)} aria-pressed={at(1)} title="100% (Z)" data-testid="zoom-100">
        100%
      </button>
      <button type="button" className="zoom-btn zoom-text" onClick={() => pz.zoomTo(actual * 2)} aria-pressed={at(2)} data-testid="zoom-200">
        200%
      </button>
    </div>
  );
}
