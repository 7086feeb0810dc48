import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Fab from '@mui/material/Fab';
import { useTheme } from '@mui/material/styles';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import { useTranslation } from 'react-i18next';
import { INFINITE_SCROLL_THRESHOLD_PX, type Message, type Ticket } from '@balcao/contracts';
import { useMessages } from './conversationQueries';
import { useUser } from '../../../api/session';
import { ListState } from '../../../components/ListStates';
import { toast } from '../../../components/toast';
import { MessageBubble } from './MessageBubble';
import type { MessageActions } from './MessageMenu';
import { buildTimeline, dayLabel, mergePages } from './timeline';

interface Props {
  ticket: Ticket;
  actions: MessageActions;
  canReply: boolean;
  /** Forward selection: null when not selecting. */
  selected: ReadonlySet<number> | null;
  onToggleSelect: (m: Message) => void;
  /** Changes each time the attendant sends: the list then follows to the newest message. */
  followSignal: number;
}

const HIGHLIGHT_MS = 1500;

function DaySeparator({ date }: { date: string }) {
  const { t } = useTranslation();
  const label = dayLabel(date, new Date());
  const text = label.kind === 'date' ? label.text : t(`conversation.${label.kind}`);
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }} role="separator" aria-label={text}>
      <Chip size="small" label={text} sx={{ bgcolor: 'background.paper', boxShadow: 1, fontSize: 12 }} />
    </Box>
  );
}

/**
 * The conversation, virtualised: older pages load when the top comes within
 * 100 px and the rows in view stay where they were; new messages follow when
 * the reader is at the end.
 */
export function MessageList({ ticket, actions, canReply, selected, onToggleSelect, followSignal }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const user = useUser();
  const query = useMessages(ticket.id);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const messages = useMemo(() => mergePages(query.data?.pages ?? []), [query.data]);
  const items = useMemo(() => buildTimeline(messages), [messages]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const positioned = useRef(false);
  const follow = useRef(false);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [awayFromEnd, setAwayFromEnd] = useState(false);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (items[i]?.day ? 108 : 64),
    getItemKey: (i) => items[i]?.key ?? i,
    overscan: 8,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 120,
    paddingStart: 8,
    paddingEnd: 8,
  });

  const scrollToEnd = useCallback(() => {
    if (items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  }, [items.length, virtualizer]);

  // The first page opens at the newest message.
  useEffect(() => {
    if (positioned.current || items.length === 0) return;
    scrollToEnd();
    const id = requestAnimationFrame(() => {
      positioned.current = true;
    });
    return () => cancelAnimationFrame(id);
  }, [items.length, scrollToEnd]);

  // After the attendant sends, the next new row is followed even when scrolled up.
  useEffect(() => {
    if (followSignal > 0) follow.current = true;
  }, [followSignal]);
  useEffect(() => {
    if (!follow.current) return;
    follow.current = false;
    scrollToEnd();
  }, [items.length, scrollToEnd]);

  const loadOlderIfNeeded = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !positioned.current || !hasNextPage || isFetchingNextPage) return;
    const short = el.scrollHeight <= el.clientHeight;
    if (short || el.scrollTop < INFINITE_SCROLL_THRESHOLD_PX) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // A first page shorter than the viewport cannot be scrolled: load the next one right away.
  useEffect(() => {
    const id = requestAnimationFrame(loadOlderIfNeeded);
    return () => cancelAnimationFrame(id);
  }, [items.length, loadOlderIfNeeded]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    setAwayFromEnd(el.scrollHeight - el.scrollTop - el.clientHeight > 300);
    loadOlderIfNeeded();
  };

  const onQuoteClick = useCallback(
    (id: number) => {
      const index = items.findIndex((i) => i.message.id === id);
      if (index < 0) {
        toast.info(t('conversation.quote.notLoaded'));
        return;
      }
      virtualizer.scrollToIndex(index, { align: 'center' });
      setHighlight(id);
      window.setTimeout(() => setHighlight((h) => (h === id ? null : h)), HIGHLIGHT_MS);
    },
    [items, virtualizer, t],
  );

  const hideDeletedBody = user.company.companieSettings.lgpdDeleteMessage === 'enabled';
  const wallpaper = theme.palette.mode === 'dark' ? '#0b141a' : '#efeae2';
  const loaded = !query.isLoading && !query.isError;

  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 0, bgcolor: wallpaper }}>
      <Box
        ref={scrollRef}
        onScroll={onScroll}
        sx={{ height: '100%', overflowY: 'auto', overflowAnchor: 'none', contain: 'strict' }}
        data-testid="message-list"
        role="log"
        aria-label={t('conversation.messagesLabel')}
        aria-busy={query.isFetching}
      >
        {isFetchingNextPage && (
          <Box sx={{ position: 'absolute', top: 8, left: 0, right: 0, display: 'flex', justifyContent: 'center', zIndex: 1 }}>
            <CircularProgress size={22} aria-label={t('conversation.loadingOlder')} />
          </Box>
        )}
        <ListState
          loading={query.isLoading}
          error={query.isError}
          empty={loaded && messages.length === 0}
          emptyText={t('conversation.empty')}
          onRetry={() => void query.refetch()}
        />
        {items.length > 0 && (
          <Box sx={{ height: virtualizer.getTotalSize(), width: '100%', position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = items[row.index];
              if (!item) return null;
              return (
                <Box
                  key={row.key}
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  sx={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}
                >
                  {item.day && <DaySeparator date={item.message.createdAt} />}
                  <MessageBubble
                    message={item.message}
                    first={item.first}
                    isGroup={ticket.isGroup}
                    highlighted={highlight === item.message.id}
                    selecting={selected !== null}
                    selected={selected?.has(item.message.id) ?? false}
                    canReply={canReply}
                    hideDeletedBody={hideDeletedBody}
                    actions={actions}
                    onToggleSelect={onToggleSelect}
                    onQuoteClick={onQuoteClick}
                  />
                </Box>
              );
            })}
          </Box>
        )}
      </Box>
      {awayFromEnd && (
        <Fab size="small" onClick={scrollToEnd} aria-label={t('conversation.scrollToEnd')} sx={{ position: 'absolute', right: 16, bottom: 16 }}>
          <KeyboardArrowDownIcon />
        </Fab>
      )}
    </Box>
  );
}
