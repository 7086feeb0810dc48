import { describe, expect, it } from 'vitest';
import { CONTACT_DRAWER_WIDTH } from '../contact-drawer/ContactDrawer';
import { MIN_CONVERSATION_WIDTH, panelFits } from './roomForPanel';

describe('panelFits (issue 12: the conversation keeps a usable width)', () => {
  it('lays the contact drawer beside a wide conversation and over a narrow one', () => {
    expect(panelFits(1000, CONTACT_DRAWER_WIDTH)).toBe(true);
    expect(panelFits(MIN_CONVERSATION_WIDTH + CONTACT_DRAWER_WIDTH, CONTACT_DRAWER_WIDTH)).toBe(true);
    // 1366 px with the menu and the ticket list open leaves about 700 px for conversation + drawer.
    expect(panelFits(700, CONTACT_DRAWER_WIDTH)).toBe(false);
  });
});
