let context: AudioContext | null = null;

/**
 * A short two-note chime made with the Web Audio API (no sound file to ship),
 * at `volume` (0–1, the top bar's setting). Silently nothing where audio is unavailable.
 */
export function playChime(volume: number): void {
  if (volume <= 0 || typeof window === 'undefined' || typeof window.AudioContext !== 'function') return;
  try {
    context ??= new window.AudioContext();
    const ctx = context;
    if (ctx.state === 'suspended') void ctx.resume();
    const start = ctx.currentTime;
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.25 * volume, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.45);
    [880, 1320].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(freq, start + i * 0.12);
      osc.connect(gain);
      osc.start(start + i * 0.12);
      osc.stop(start + 0.45);
    });
  } catch {
    // Audio blocked or unavailable: the notification is still shown.
  }
}
