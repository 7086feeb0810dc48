import OpenAI, { toFile } from 'openai';
import type { Config } from '../../config.js';

/** The remote services of a prompt (docs/prompts.md); tests point them at local fakes through the config's base URLs. */

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

type AiConfig = Config['ai'];

/** The official SDK, one call at a time, bounded: no retries, so a slow remote costs at most `timeoutMs`. */
const client = (ai: AiConfig, apiKey: string) => new OpenAI({ apiKey, baseURL: ai.openAiBaseUrl, timeout: ai.timeoutMs, maxRetries: 0 });

export async function complete(ai: AiConfig, apiKey: string, turns: ChatTurn[], opts: { maxTokens: number; temperature: number }): Promise<string> {
  const res = await client(ai, apiKey).chat.completions.create({ model: ai.model, messages: turns, max_tokens: opts.maxTokens, temperature: opts.temperature });
  return res.choices[0]?.message?.content?.trim() ?? '';
}

/** The audio transcriptions endpoint (Whisper). */
export async function transcribe(ai: AiConfig, apiKey: string, audio: Buffer, fileName: string): Promise<string> {
  const res = await client(ai, apiKey).audio.transcriptions.create({ file: await toFile(audio, fileName), model: 'whisper-1' });
  return res.text.trim();
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** Azure TTS REST: the text as SSML in the named Brazilian Portuguese neural voice, answered as Ogg/Opus (a voice note). */
export async function synthesise(ai: AiConfig, voice: { name: string; key: string; region: string }, text: string): Promise<Buffer> {
  const base = ai.azureSpeechUrl ?? `https://${encodeURIComponent(voice.region)}.tts.speech.microsoft.com`;
  const ssml = `<speak version='1.0' xml:lang='pt-BR'><voice xml:lang='pt-BR' name='pt-BR-${voice.name}Neural'>${escapeXml(text)}</voice></speak>`;
  const res = await fetch(`${base}/cognitiveservices/v1`, {
    method: 'POST',
    headers: {
      'Ocp-Apim-Subscription-Key': voice.key,
      'Content-Type': 'application/ssml+xml',
      'X-Microsoft-OutputFormat': 'ogg-16khz-16bit-mono-opus',
      'User-Agent': 'balcao',
    },
    body: ssml,
    signal: AbortSignal.timeout(ai.timeoutMs),
  });
  if (!res.ok) throw new Error(`Azure TTS answered ${res.status}`);
  const audio = Buffer.from(await res.arrayBuffer());
  if (audio.length === 0) throw new Error('Azure TTS answered no audio');
  return audio;
}
