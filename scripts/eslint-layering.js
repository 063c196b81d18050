// ESLint rule `layering/rooms`: each room (a folder of main, a feature of the renderer) names the rooms it may
// import, as an allow-list; a room that is not placed is refused until it is; a room that keeps a front door may
// be entered only through it. VS Code's `local/code-layering` is the model. The rooms and their lists are in
// scripts/layers.js (eslint.config.js reads it); docs/architecture.md explains them.
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** The room of a repository-relative path under `base`, or null when the path is not under it. */
function roomOf(path, { base, depth }) {
  if (!path.startsWith(`${base}/`)) return null;
  const parts = path.slice(base.length + 1).split('/');
  // A file directly under base (App.tsx, desktop-shell.ts) is in the room named '.'.
  if (parts.length === 1) return '.';
  if (depth === 2 && parts[0] === 'features') return parts.length > 2 ? `features/${parts[1]}` : '.';
  return parts[0];
}

function specifierOf(node) {
  const source = node.source;
  return source && source.type === 'Literal' && typeof source.value === 'string' ? source.value : null;
}

export const layering = {
  meta: { name: 'layering' },
  rules: {
    rooms: {
      meta: {
        type: 'problem',
        docs: { description: 'Each room imports only the rooms its allow-list names, through their front doors' },
        schema: [
          {
            type: 'object',
            properties: {
              base: { type: 'string' },
              depth: { type: 'number' },
              allow: { type: 'object' },
              doors: { type: 'object' },
            },
            required: ['base', 'allow'],
            additionalProperties: false,
          },
        ],
      },
      create(context) {
        const options = context.options[0];
        const doors = options.doors ?? {};
        const file = relative(root, context.filename).split(sep).join('/');
        const own = roomOf(file, options);
        if (own === null) return {};
        const allowed = options.allow[own];
        const check = (node) => {
          const specifier = specifierOf(node);
          if (!specifier || !specifier.startsWith('.')) return;
          const target = relative(root, resolve(dirname(context.filename), specifier)).split(sep).join('/');
          const room = roomOf(target, options);
          if (room === null || room === own) return;
          if (!allowed.includes(room)) {
            context.report({
              node: node.source,
              message: `${options.base}/${own} may not import ${options.base}/${room} (it may import: ${allowed.join(', ') || 'nothing of its own house'}). See docs/architecture.md.`,
            });
            return;
          }
          const door = doors[room];
          // A stylesheet is not code: the room that mounts a feature may load its styles.
          if (door && !target.endsWith('.css') && target !== `${options.base}/${room}/${door}`) {
            context.report({
              node: node.source,
              message: `${options.base}/${room} is entered only through its front door ${options.base}/${room}/${door}, not ${target}.`,
            });
          }
        };
        return {
          Program(node) {
            if (!allowed) {
              context.report({
                node,
                message: `${options.base}/${own} is not placed: name what it may import in scripts/layers.js and in docs/architecture.md.`,
              });
            }
          },
          ImportDeclaration: (node) => allowed && check(node),
          ExportNamedDeclaration: (node) => allowed && check(node),
          ExportAllDeclaration: (node) => allowed && check(node),
          ImportExpression: (node) => allowed && check(node),
        };
      },
    },
  },
};
