import { postSimulated } from '../../server/tools/simulate';
import { INBOX_API_URL, META_APP_SECRET } from './meta-env';

let seq = 0;

/**
 * A Messenger customer writing to a Page: each message is a Meta webhook event,
 * signed with the app secret as Meta signs it, posted to the inbox instance.
 * Every customer gets a fresh PSID, so each test has its own contact and ticket.
 */
export class Customer {
  readonly psid: string;
  /** A short mark unique to this customer, to tell its messages apart in lists that cut texts. */
  readonly tag: string;

  constructor(readonly pageId = '1000001') {
    seq += 1;
    this.tag = `${Date.now() % 1e6}${seq}`;
    this.psid = `29${this.tag}`;
  }

  /** Posts one message; resolves once the server accepted the event (HTTP 200). */
  async says(text: string): Promise<void> {
    const { status } = await postSimulated(INBOX_API_URL, META_APP_SECRET, { accountId: this.pageId, from: this.psid, text });
    if (status !== 200) throw new Error(`webhook answered HTTP ${status}`);
  }
}
