// Load generator for bench/inspector.bench.ts, run as its own process so the main process it measures does no
// client work. Sends validly signed `image_pack.published` deliveries (spec §6 headers, signed as the service
// signs them) to the URL in INSPECTOR_URL with the secret in INSPECTOR_SECRET (environment, never argv), in
// phases of `count@concurrency` (argv, e.g. `1000@1 2000@8 2000@64`), and prints one JSON line of results.
import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingMessage } from 'node:http';
import { signWebhookDelivery } from '../src-shared/webhook-signature.ts';

const url = new URL(process.env.INSPECTOR_URL ?? '');
const secret = process.env.INSPECTOR_SECRET ?? '';
const phases = process.argv.slice(2).map((p) => {
  const [count, concurrency] = p.split('@').map(Number);
  return { count: count as number, concurrency: concurrency as number };
});

let sequence = 0;
const statuses: Record<string, number> = {};

async function deliverOne(agent: Agent): Promise<void> {
  const n = ++sequence;
  const body = new TextEncoder().encode(
    JSON.stringify({
      event: 'image_pack.published',
      publication: { id: n, pack_id: `pk_Bnch${String(n % 10_000).padStart(4, '0')}`, version: 1 + Math.floor(n / 10_000), style_code: 'SS26', published_at: Math.floor(Date.now() / 1000) },
    }),
  );
  const headers = await signWebhookDelivery({ secret, event: 'image_pack.published', deliveryId: randomUUID(), timestamp: Math.floor(Date.now() / 1000), body });
  const status = await new Promise<number>((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(body.byteLength) } }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
  statuses[status] = (statuses[status] ?? 0) + 1;
}

const started = performance.now();
for (const phase of phases) {
  // Keep-alive connections, as many as the phase's concurrency (the service's own sender uses one per delivery).
  const agent = new Agent({ keepAlive: true, maxSockets: phase.concurrency });
  let left = phase.count;
  await Promise.all(
    Array.from({ length: phase.concurrency }, async () => {
      while (left > 0) {
        left--;
        await deliverOne(agent);
      }
    }),
  );
  agent.destroy();
}
process.stdout.write(`${JSON.stringify({ sent: sequence, wallMs: performance.now() - started, statuses })}\n`);
