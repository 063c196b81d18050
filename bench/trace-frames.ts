// Main-thread time per frame from a Chromium trace (the gallery benches). A frame is the renderer main thread's
// (CrRendererMain's) top-level task (RunTask; nested ones not counted twice) that runs the frame's animation
// callbacks (the one holding FireAnimationFrame: BeginMainFrame, which first dispatches the scroll event, then
// runs rAF callbacks, then style, layout and paint), plus every top-level task after it until the next frame's:
// all the work the page's main thread did for that frame (input and scroll handling, rAF callbacks, React
// renders, style, layout, paint, image-load and IPC callbacks, GC). As thread CPU time (the work itself) and as
// wall time (also counts waiting for a core on a shared machine).
//
// (Until 2026-11-22 a frame began 2 ms before its FireAnimationFrame. A scroll event that forces style and
// layout runs before rAF in the same task, often more than 2 ms before it, so that task was counted with the
// previous frame: frames where rows entered were counted as two frames' work.)

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Per-frame main-thread time in ms, one entry per frame, as wall time and as thread CPU time. */
export function frameTimesFromTrace(buffer: Buffer): { wall: number[]; cpu: number[] } {
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const withFrames = new Set(events.filter((e) => e.name === 'FireAnimationFrame').map((e) => `${e.pid}:${e.tid}`));
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && withFrames.has(`${e.pid}:${e.tid}`));
  if (!main) throw new Error('no renderer main thread with animation frames in the trace');
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const animationFrames = onMain.filter((e) => e.name === 'FireAnimationFrame').map((e) => e.ts).sort((a, b) => a - b);
  const top: TraceEvent[] = [];
  let busyUntil = -Infinity;
  for (const task of onMain.filter((e) => e.name === 'RunTask').sort((a, b) => a.ts - b.ts)) {
    if (task.ts >= busyUntil) {
      top.push(task);
      busyUntil = task.ts + (task.dur ?? 0);
    }
  }
  // Each frame starts where its top-level task starts (the task that holds its FireAnimationFrame).
  const frameStarts: number[] = [];
  let k = 0;
  for (const at of animationFrames) {
    while (k + 1 < top.length && (top[k + 1]?.ts ?? Infinity) <= at) k++;
    const task = top[k];
    const start = task && task.ts <= at && at <= task.ts + (task.dur ?? 0) ? task.ts : at;
    if (frameStarts.at(-1) !== start) frameStarts.push(start);
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  let i = 0;
  for (let f = 0; f + 1 < frameStarts.length; f++) {
    const from = frameStarts[f] ?? 0;
    const to = frameStarts[f + 1] ?? 0;
    let w = 0;
    let c = 0;
    while (i < top.length && (top[i]?.ts ?? 0) < from) i++;
    for (let j = i; j < top.length && (top[j]?.ts ?? 0) < to; j++) {
      w += top[j]?.dur ?? 0;
      c += top[j]?.tdur ?? 0;
    }
    wall.push(w / 1000);
    cpu.push(c / 1000);
  }
  return { wall, cpu };
}
