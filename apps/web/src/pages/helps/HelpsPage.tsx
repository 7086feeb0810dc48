import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import Typography from '@mui/material/Typography';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import type { Help } from '@balcao/contracts';
import { useHelpsList } from '../../api/helps';
import { ListState } from '../../components/ListStates';
import { embedUrl, thumbnailUrl } from './video';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';

function Thumbnail({ help }: { help: Help }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const src = thumbnailUrl(help.video);
  return (
    <Box sx={{ position: 'relative', aspectRatio: '16 / 9', bgcolor: 'grey.900', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      {src && !failed && (
        <Box component="img" src={src} alt="" onError={() => setFailed(true)} sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }} />
      )}
      <PlayCircleOutlineIcon sx={{ position: 'relative', fontSize: 56, color: 'common.white', opacity: 0.9 }} aria-label={src ? t('helps.watch') : t('helps.noVideo')} />
    </Box>
  );
}

/** /helps: a grid of help videos; a card opens the player in a modal closed by Escape (spec 3 §2). */
export function HelpsPage() {
  const { t } = useTranslation();
  const helps = useHelpsList(true);
  const [playing, setPlaying] = useState<Help | null>(null);
  const list = helps.data ?? [];
  const src = embedUrl(playing?.video);

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, flex: 1 }} data-testid="helps-page">
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {t('helps.title')}
      </Typography>
      <ListState
        loading={helps.isPending}
        error={helps.isError}
        empty={helps.isSuccess && list.length === 0}
        emptyText={t('helps.empty')}
        onRetry={() => void helps.refetch()}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }} data-testid="helps-grid">
        {list.map((help) => (
          <Card key={help.id} variant="outlined" data-testid={`help-card-${help.id}`}>
            <CardActionArea onClick={() => setPlaying(help)} disabled={!embedUrl(help.video)}>
              <Thumbnail help={help} />
              <CardContent>
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }} gutterBottom>
                  {help.title}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                  {help.description}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      <Dialog open={playing !== null} onClose={() => setPlaying(null)} maxWidth="md" fullWidth data-testid="help-video-modal">
        <ClosableDialogTitle closeLabel={t('helps.close')} onClose={() => setPlaying(null)}>
          {playing?.title}
        </ClosableDialogTitle>
        {src && (
          <Box sx={{ aspectRatio: '16 / 9', bgcolor: 'common.black' }}>
            <iframe
              data-testid="help-video-iframe"
              src={src}
              title={playing?.title ?? ''}
              style={{ width: '100%', height: '100%', border: 0 }}
              allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
            />
          </Box>
        )}
      </Dialog>
    </Box>
  );
}
