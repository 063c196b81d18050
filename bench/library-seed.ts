// A library at scale for bench/library.bench.ts and the library tests: sessions of turns of images written
// through the real write path (LibraryRepo.createTurn / insertImages: search indexes and automatic titles
// included) in one transaction, then culling marks and boards with prepared statements. Deterministic
// (a seeded PRNG), so every run measures the same library.
import type { DatabaseSync } from 'node:sqlite';
import { estimateCredits } from '../src-shared/pricing.ts';
import { transaction } from '../src-main/library/database.ts';
import { LibraryRepo } from '../src-main/library/library-repo.ts';

export interface SeedOptions {
  sessions: number;
  /** Turns per session; each turn has 4 images. */
  turnsPerSession: number;
  boards?: number;
}

export interface SeededLibrary {
  images: number;
  turns: number;
  sessions: number;
  boardIds: string[];
  /** The board with the most images. */
  bigBoardId: string;
  /** First and last image time (ms). */
  from: number;
  to: number;
}

export const MODELS = ['nano-banana-2', 'gpt-image-2', 'gpt-image-2.5', 'seedream-5-0-pro', 'qwen-image-3.0-pro'] as const;
export const PURPOSES = ['free', 'main_white', 'detail', 'buyer_show', 'pure_white'] as const;

const PRODUCTS = [
  'shampoo bottle', 'perfume bottle', 'leather handbag', 'running sneaker', 'ceramic mug', 'wireless earbuds', 'smart watch',
  'lipstick', 'face cream jar', 'sunglasses', 'wool scarf', 'desk lamp', 'coffee grinder', 'yoga mat', 'water bottle',
  'silk dress', 'denim jacket', 'phone case', 'bluetooth speaker', 'scented candle', 'tea set', 'baby stroller',
  'mechanical keyboard', 'gaming mouse', 'backpack', 'wallet', 'necklace', 'ring', 'hair dryer', 'electric toothbrush',
];
const PRODUCTS_ZH = ['洗发水瓶', '香水', '真皮手提包', '跑步鞋', '陶瓷马克杯', '无线耳机', '智能手表', '口红', '面霜', '太阳镜', '羊毛围巾', '台灯', '咖啡磨豆机', '瑜伽垫', '保温杯', '连衣裙'];
const SURFACES = ['white marble', 'light oak table', 'concrete plinth', 'linen cloth', 'pastel pink backdrop', 'sand dune', 'glass shelf', 'wet rocks', 'terrazzo floor', 'velvet cushion'];
const SURFACES_ZH = ['白色大理石', '原木桌面', '水泥台', '亚麻布', '粉色背景', '沙丘', '玻璃层板', '湿润岩石'];
const LIGHT = ['soft morning light', 'hard noon sun with crisp shadows', 'studio softbox lighting', 'golden hour glow', 'neon rim light', 'overcast diffuse light'];
const STYLE = ['minimalist', 'luxury editorial', 'lifestyle', 'flat lay', 'close-up macro', 'Scandinavian', 'cyberpunk', 'spring campaign'];
const EXTRA = ['with water droplets', 'with dried flowers', 'with a shadow of palm leaves', 'floating in the air', 'surrounded by citrus slices', '50% off banner space on the left', 'room for copy at the top', ''];

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

/** A product-shot prompt as designers write them: English mostly, Chinese for about one session in five. */
function prompt(rand: () => number, product: string, chinese: boolean): string {
  if (chinese) return `${product}放在${pick(rand, SURFACES_ZH)}上，${pick(rand, ['柔和自然光', '棚拍柔光', '黄金时刻', '极简风格', '高级感', '春季新品'])}，电商主图`;
  const extra = pick(rand, EXTRA);
  return `${product[0]?.toUpperCase()}${product.slice(1)} on ${pick(rand, SURFACES)}, ${pick(rand, LIGHT)}, ${pick(rand, STYLE)} product photo${extra ? `, ${extra}` : ''}`;
}

const id = (prefix: string, n: number) => `${prefix}${n.toString(36).padStart(8, '0')}`;

export function seedLibrary(db: DatabaseSync, options: SeedOptions): SeededLibrary {
  const repo = new LibraryRepo(db);
  const rand = prng(20_260_101);
  const start = Date.UTC(2025, 0, 1);
  const sessionGap = Math.round((365 * 86_400_000) / options.sessions);
  let imageNo = 0;
  let turnNo = 0;
  const imageIds: string[] = [];
  transaction(db, () => {
    for (let s = 0; s < options.sessions; s++) {
      const sessionId = id('ls_', s);
      const at = start + s * sessionGap + Math.floor(rand() * 600_000);
      repo.createSession(sessionId, 'local', at);
      const chinese = rand() < 0.2;
      const product = chinese ? pick(rand, PRODUCTS_ZH) : pick(rand, PRODUCTS);
      // One session in twenty is continued weeks later, so sessions interleave in time as real ones do.
      const continuedAt = rand() < 0.05 ? at + Math.floor(rand() * 30 * 86_400_000) : null;
      let last = at;
      for (let t = 0; t < options.turnsPerSession; t++) {
        const turnId = id('lt_', turnNo++);
        const model = pick(rand, MODELS);
        const purpose = pick(rand, PURPOSES);
        const text = prompt(rand, product, chinese);
        const request = { prompt: text, model, n: 4 as const, ratio: '3:4' as const, purpose_id: purpose };
        const estimate = estimateCredits({ model, prompt: text, referenceCount: 0, n: 4 });
        const turnAt = continuedAt !== null && t === options.turnsPerSession - 1 ? continuedAt : at + t * 90_000;
        last = Math.max(last, turnAt);
        repo.createTurn({ id: turnId, sessionId, environment: 'local', request, estimate, startedAt: turnAt, retryOf: null, referenceImageIds: [] });
        repo.updateTurn(turnId, { status: 'succeeded', creditsCharged: estimate.total, finishedAt: turnAt + 20_000, durationMs: 20_000 });
        const images = Array.from({ length: 4 }, () => {
          const imageId = id('img_', imageNo++);
          imageIds.push(imageId);
          return { id: imageId, filename: `${imageId.slice(4)}.png`, width: 896, height: 1200 };
        });
        repo.insertImages({ id: turnId, sessionId, environment: 'local', model, purpose, prompt: text }, images, turnAt + 20_000);
      }
      repo.touchSession(sessionId, last);
    }

    // Culling: about a third rated (more 3s than 5s), 8 % rejected, 5 % starred; all downloaded.
    const mark = db.prepare("UPDATE images SET rating = ?, rejected = ?, starred = ?, download = 'done' WHERE id = ?");
    for (const imageId of imageIds) {
      const r = rand();
      const rating = r < 0.66 ? 0 : r < 0.72 ? 1 : r < 0.8 ? 2 : r < 0.9 ? 3 : r < 0.97 ? 4 : 5;
      mark.run(rating, rand() < 0.08 ? 1 : 0, rand() < 0.05 ? 1 : 0, imageId);
    }
  });

  // Boards: one large (5,000 images), the rest 20–1,000 images each.
  const boardIds: string[] = [];
  const boards = options.boards ?? 0;
  transaction(db, () => {
    const insertBoard = db.prepare('INSERT INTO boards (id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    const insertMember = db.prepare(
      'INSERT OR IGNORE INTO board_images (board_id, image_id, added_at, created_at, session_id) SELECT ?, id, ?, created_at, session_id FROM images WHERE id = ?',
    );
    for (let b = 0; b < boards; b++) {
      const boardId = id('bd_', b);
      const name = b === 0 ? 'Campaign picks' : `Board ${b + 1}`;
      insertBoard.run(boardId, name, name.toLowerCase(), start, start);
      boardIds.push(boardId);
      const size = b === 0 ? Math.min(5000, imageIds.length) : Math.min(imageIds.length, 20 + Math.floor(rand() * 980));
      for (let k = 0; k < size; k++) insertMember.run(boardId, start + k, pick(rand, imageIds));
    }
  });
  const range = db.prepare('SELECT MIN(created_at) AS a, MAX(created_at) AS b FROM images').get() as { a: number; b: number };
  return {
    images: imageNo,
    turns: turnNo,
    sessions: options.sessions,
    boardIds,
    bigBoardId: boardIds[0] ?? '',
    from: range.a,
    to: range.b,
  };
}
