import type { CampaignSettings } from '@balcao/contracts';

/*
 * Pacing of a campaign (spec 3 §3, §9), in the server's local time: messages only between
 * `startHour` and `endHour`, on Saturdays/Sundays only when `sabado`/`domingo`;
 * `messageInterval` seconds between two messages, and `greaterInterval` instead after every
 * `longerIntervalAfter` messages (0 turns either off). Pure functions of a given instant, so
 * tests drive them with any clock.
 */

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

function dayAllowed(day: Date, s: CampaignSettings): boolean {
  const weekday = day.getDay();
  return (weekday !== 6 || s.sabado) && (weekday !== 0 || s.domingo);
}

export function inWindow(now: Date, s: CampaignSettings): boolean {
  const minute = now.getHours() * 60 + now.getMinutes();
  return dayAllowed(now, s) && minute >= minutesOf(s.startHour) && minute < minutesOf(s.endHour);
}

/** The next instant sending may start (now, when within the window). */
export function nextWindowStart(now: Date, s: CampaignSettings): Date {
  if (inWindow(now, s)) return now;
  const start = minutesOf(s.startHour);
  for (let offset = 0; offset <= 7; offset++) {
    const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset, Math.floor(start / 60), start % 60, 0, 0);
    if (day > now && dayAllowed(day, s)) return day;
  }
  // Both weekend days off and no weekday ahead cannot happen; keep a bound anyway.
  return new Date(now.getTime() + 24 * 3600 * 1000);
}

/**
 * When the message after this one may go, given the messages sent since the last long
 * break (this one included); answers the counter to keep.
 */
export function nextSendAfter(now: Date, s: CampaignSettings, sentSinceBreak: number): { at: Date; sentSinceBreak: number } {
  const longBreak = s.longerIntervalAfter > 0 && s.greaterInterval > 0 && sentSinceBreak >= s.longerIntervalAfter;
  const seconds = longBreak ? s.greaterInterval : s.messageInterval;
  return { at: new Date(now.getTime() + seconds * 1000), sentSinceBreak: longBreak ? 0 : sentSinceBreak };
}
