import type { Channel } from './whatsapp.js';

/**
 * WhatsApp's text marks: *bold*, _italic_, ~strike~ (a mark opens after a space or punctuation and
 * closes before one, so `2*3*4` or `snake_case_name` stay as written).
 */
const INLINE_MARK = /(^|[\s\p{P}])([*_~])(?=\S)(.+?)(?<=\S)\2(?=$|[\s\p{P}])/gu;
const MONOSPACE = /```([\s\S]+?)```/g;

/** The text without WhatsApp's marks (nested marks included), for channels that show them as literal characters. */
export function stripWhatsappMarkup(text: string): string {
  let out = text.replace(MONOSPACE, '$1');
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replace(INLINE_MARK, '$1$3');
  }
  return out;
}

/** A body as the customer's channel should receive it: WhatsApp markup for WhatsApp, plain text elsewhere. */
export function formatForChannel(channel: Channel, text: string): string {
  return channel === 'whatsapp' ? text : stripWhatsappMarkup(text);
}
