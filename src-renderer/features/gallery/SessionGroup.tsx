// One session's visible part in the virtualised grid: its header (when in view) and its rows in view, one
// rowgroup whose box spans the whole session, so rows scrolling in and out never move it.
import { memo } from 'react';
import type { EnvironmentName } from '../../../src-shared/ipc/settings.ts';
import type { Language } from '../../../src-shared/language.ts';
import type { AppText } from '../../i18n/text.ts';
import { GalleryThumb, type TileText } from './GalleryThumb.tsx';
import type { LayoutItem } from './layout.ts';
import { SessionHeader } from './SessionHeader.tsx';

export interface GroupProps {
  items: Array<{ item: LayoutItem; start: number }>;
  top: number;
  height: number;
  selectedSet: ReadonlySet<string>;
  focusedId: string | null;
  onSelect: (id: string, mode: 'single' | 'toggle' | 'range') => void;
  onOpen: (id: string) => void;
  onReject: (id: string) => void;
  dragIds: (id: string) => string[];
  t: AppText;
  text: TileText;
  language: Language;
  environment: EnvironmentName | undefined;
}

/** The visible part of one session: its header (when in view) and its rows in view, one rowgroup. */
export const SessionGroup = memo(function SessionGroup({ items, top, height, selectedSet, focusedId, onSelect, onOpen, onReject, dragIds, t, text, language, environment }: GroupProps) {
  const session = items[0]?.item.session;
  if (!session) return null;
  return (
    <div
      role="rowgroup"
      className="session-group"
      data-testid="session-group"
      data-session-id={session.id}
      style={{ position: 'absolute', top: 0, left: 0, width: '100%', height, transform: `translateY(${top}px)` }}
    >
      {items.map(({ item, start }) =>
        item.kind === 'header' ? (
          <div key={item.key} role="row" className="grid-header-row" style={{ top: start - top, height: item.size }}>
            <div role="gridcell" className="grid-header-cell">
              <SessionHeader session={item.session} total={item.total} environment={environment} t={t} language={language} />
            </div>
          </div>
        ) : (
          <div key={item.key} role="row" className="grid-row" style={{ top: start - top, height: item.height }}>
            {item.tiles.map((tile) => (
              <GalleryThumb
                key={tile.image.id}
                image={tile.image}
                left={tile.left}
                width={tile.width}
                height={item.height}
                selected={selectedSet.has(tile.image.id)}
                focused={focusedId === tile.image.id}
                onSelect={onSelect}
                onOpen={onOpen}
                onReject={onReject}
                dragIds={dragIds}
                text={text}
              />
            ))}
          </div>
        ),
      )}
    </div>
  );
});
