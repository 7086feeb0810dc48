import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ImportExportIcon from '@mui/icons-material/ImportExport';
import { downloadContactsExport, useImportFromPhone, type PhoneSource } from '../../api/contacts';
import { toast, toastError } from '../../components/toast';

/** Saves a downloaded file under its name, as a link click would. */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface Props {
  /** The export is for contacts-page:deleteContact only (spec 2 §6). */
  mayExport: boolean;
  onImportSheet: () => void;
}

/** The contacts page's import/export menu: spreadsheet import, the phone's contacts or chats, and the full export as .xlsx. */
export function ImportExportMenu({ mayExport, onImportSheet }: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const phone = useImportFromPhone();
  const importFrom = (source: PhoneSource) => {
    close();
    phone.mutate(source, {
      onSuccess: (result) => toast.success(t(source === 'chats' ? 'contacts.toasts.chatsImported' : 'contacts.toasts.phoneImported', { count: result.created })),
      onError: toastError,
    });
  };
  const exportAll = () => {
    close();
    downloadContactsExport()
      .then((blob) => saveFile(blob, 'contatos.xlsx'))
      .catch(toastError);
  };
  return (
    <>
      <Button variant="outlined" startIcon={<ImportExportIcon />} onClick={(e) => setAnchor(e.currentTarget)} data-testid="contacts-import-export">
        {t('contacts.menu.open')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem
          onClick={() => {
            close();
            onImportSheet();
          }}
          data-testid="contacts-import-sheet"
        >
          {t('contacts.menu.importSheet')}
        </MenuItem>
        <MenuItem onClick={() => importFrom('contacts')} disabled={phone.isPending} data-testid="contacts-import-phone">
          {t('contacts.menu.importPhone')}
        </MenuItem>
        <MenuItem onClick={() => importFrom('chats')} disabled={phone.isPending} data-testid="contacts-import-chats">
          {t('contacts.menu.importChats')}
        </MenuItem>
        {mayExport && (
          <MenuItem onClick={exportAll} data-testid="contacts-export">
            {t('contacts.menu.export')}
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
