import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { INFINITE_SCROLL_THRESHOLD_PX, type Ticket } from '@balcao/contracts';
import { nearBottom } from '../../../components/form';
import { ListState } from '../../../components/ListStates';
import { TicketRow } from './TicketRow';

interface Props {
  tickets: Ticket[];
  selectedUuid: string | null;
  showOwner: boolean;
  loading: boolean;
  error: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onRetry: () => void;
  onAccept?: (ticket: Ticket) => void;
  onOpen?: () => void;
  /** What an empty list says (the search view asks for a term first). */
  emptyText: string;
}

const ROW_ESTIMATE_PX = 96;
const CLOCK_TICK_MS = 30_000;

/** The relative times of the rows move on by themselves. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * A virtualised ticket list: only the rows on screen are rendered, so long
 * lists stay smooth; the next page loads within 100 px of the bottom (spec 2 §9).
 */
export function TicketList({ tickets, selectedUuid, showOwner, loading, error, hasMore, loadingMore, onLoadMore, onRetry, onAccept, onOpen, emptyText }: Props) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const now = useNow();
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 6,
    getItemKey: (index) => tickets[index]?.id ?? index,
  });

  const maybeLoadMore = useCallback(() => {
    const el = scrollRef.current;
    if (el && hasMore && !loadingMore && nearBottom(el, INFINITE_SCROLL_THRESHOLD_PX)) onLoadMore();
  }, [hasMore, loadingMore, onLoadMore]);

  // A first page that does not fill the pane cannot be scrolled: ask for the next one.
  useEffect(() => {
    maybeLoadMore();
  }, [tickets.length, maybeLoadMore]);

  const onScroll = (_e: UIEvent<HTMLDivElement>) => maybeLoadMore();

  /** ArrowDown / ArrowUp on a row move the focus to the next / previous ticket (scrolled into the virtual window first). */
  const onRowKeys = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const from = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!from) return;
    const next = Number(from.dataset.index) + (e.key === 'ArrowDown' ? 1 : -1);
    if (next < 0 || next >= tickets.length) return;
    e.preventDefault();
    virtualizer.scrollToIndex(next);
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-index="${next}"] [role="listitem"] a`)?.focus());
  };
  const empty = !loading && !error && tickets.length === 0;

  return (
    <Box ref={scrollRef} onScroll={onScroll} sx={{ flex: 1, minHeight: 0, overflowY: 'auto', position: 'relative' }}>
      {empty ? (
        <Box sx={{ textAlign: 'center', px: 3, py: 4 }} data-testid="list-empty">
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('tickets.list.emptyTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {emptyText}
          </Typography>
        </Box>
      ) : (
        <ListState loading={loading} error={error && tickets.length === 0} empty={false} onRetry={onRetry} />
      )}
      {tickets.length > 0 && (
        <Box role="list" aria-label={t('tickets.list.label')} onKeyDown={onRowKeys} sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const ticket = tickets[item.index];
            if (!ticket) return null;
            return (
              <Box
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                sx={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
              >
                <TicketRow ticket={ticket} selected={ticket.uuid === selectedUuid} showOwner={showOwner} now={now} onAccept={onAccept} onOpen={onOpen} />
              </Box>
            );
          })}
        </Box>
      )}
      {loadingMore && (
        <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1, py: 1.5, color: 'text.secondary' }}>
          <CircularProgress size={16} />
          <Typography variant="body2">{t('tickets.list.loadingMore')}</Typography>
        </Box>
      )}
    </Box>
  );
}
