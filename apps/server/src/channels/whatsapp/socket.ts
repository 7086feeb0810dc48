import makeWASocket, {
  type AnyMessageContent,
  type BaileysEventMap,
  type GroupMetadata,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys';

/**
 * The part of a Baileys socket the session manager uses. The real socket satisfies
 * it; tests hand in a fake whose event emitter they drive with recorded events.
 */
export interface WaSocket {
  ev: {
    on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
    removeAllListeners<T extends keyof BaileysEventMap>(event: T): void;
  };
  user?: { id: string; name?: string };
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): void;
  profilePictureUrl(jid: string, type?: 'image' | 'preview'): Promise<string | undefined>;
  groupMetadata(jid: string): Promise<GroupMetadata>;
  rejectCall(callId: string, callFrom: string): Promise<void>;
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
  /** Linking by phone number: the 8-character code the user types on the phone. */
  requestPairingCode(phoneNumber: string): Promise<string>;
  /** Read receipts (blue ticks) for the customer's messages. */
  readMessages(keys: WAMessageKey[]): Promise<void>;
  /** Which numbers (as `<digits>@s.whatsapp.net`) have WhatsApp. */
  onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  signalRepository?: { lidMapping?: { getPNForLID(lid: string): Promise<string | null> } };
}

export type WaSocketFactory = (config: UserFacingSocketConfig) => WaSocket;

export const baileysSocketFactory: WaSocketFactory = (config) => makeWASocket(config);
