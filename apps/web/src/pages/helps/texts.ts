import { defineMessages } from '../../i18n/domain';

/** Help videos: the /helps grid and the super user's helps tab (spec 3 §2), under `helps.`. */
export const helpsMessages = defineMessages({
  'pt-BR': {
    title: 'Ajuda',
    empty: 'Nenhum vídeo de ajuda disponível.',
    watch: 'Assistir ao vídeo',
    noVideo: 'Sem vídeo',
    close: 'Fechar',
    manager: {
      add: 'Adicionar ajuda',
      columns: {
        title: 'Título',
        description: 'Descrição',
        video: 'Vídeo',
        actions: 'Ações',
      },
    },
    dialog: {
      addTitle: 'Adicionar ajuda',
      editTitle: 'Editar ajuda',
      title: 'Título',
      description: 'Descrição',
      video: 'Código do vídeo',
      videoHint: 'Código do vídeo no YouTube (ex.: dQw4w9WgXcQ) ou o endereço do vídeo',
      add: 'Adicionar',
      save: 'Salvar',
      cancel: 'Cancelar',
      close: 'Fechar',
    },
    confirmDelete: {
      title: 'Excluir {{title}}?',
      message: 'Este vídeo de ajuda deixará de aparecer para todos os usuários.',
    },
    toasts: {
      saved: 'Operação realizada com sucesso',
      deleted: 'Ajuda excluída com sucesso!',
      saveFailed:
        'Não foi possível realizar a operação. Verifique se já existe uma ajuda com o mesmo nome ou se os campos foram preenchidos corretamente',
    },
  },
  en: {
    title: 'Help',
    empty: 'No help videos available.',
    watch: 'Watch the video',
    noVideo: 'No video',
    close: 'Close',
    manager: {
      add: 'Add help',
      columns: {
        title: 'Title',
        description: 'Description',
        video: 'Video',
        actions: 'Actions',
      },
    },
    dialog: {
      addTitle: 'Add help',
      editTitle: 'Edit help',
      title: 'Title',
      description: 'Description',
      video: 'Video code',
      videoHint: 'The YouTube video code (e.g. dQw4w9WgXcQ) or the video address',
      add: 'Add',
      save: 'Save',
      cancel: 'Cancel',
      close: 'Close',
    },
    confirmDelete: {
      title: 'Delete {{title}}?',
      message: 'This help video will no longer be shown to any user.',
    },
    toasts: {
      saved: 'Operation completed successfully',
      deleted: 'Help deleted successfully!',
      saveFailed: 'Could not perform the operation. Check whether a help with the same name already exists or whether the fields were filled in correctly',
    },
  },
  es: {
    title: 'Ayuda',
    empty: 'No hay videos de ayuda disponibles.',
    watch: 'Ver el video',
    noVideo: 'Sin video',
    close: 'Cerrar',
    manager: {
      add: 'Agregar ayuda',
      columns: {
        title: 'Título',
        description: 'Descripción',
        video: 'Video',
        actions: 'Acciones',
      },
    },
    dialog: {
      addTitle: 'Agregar ayuda',
      editTitle: 'Editar ayuda',
      title: 'Título',
      description: 'Descripción',
      video: 'Código del video',
      videoHint: 'Código del video de YouTube (ej.: dQw4w9WgXcQ) o la dirección del video',
      add: 'Agregar',
      save: 'Guardar',
      cancel: 'Cancelar',
      close: 'Cerrar',
    },
    confirmDelete: {
      title: '¿Eliminar {{title}}?',
      message: 'Este video de ayuda dejará de mostrarse a todos los usuarios.',
    },
    toasts: {
      saved: 'Operación realizada con éxito',
      deleted: '¡Ayuda eliminada con éxito!',
      saveFailed:
        'No fue posible realizar la operación. Verifique si ya existe una ayuda con el mismo nombre o si los campos se completaron correctamente',
    },
  },
  tr: {
    title: 'Yardım',
    empty: 'Yardım videosu yok.',
    watch: 'Videoyu izle',
    noVideo: 'Video yok',
    close: 'Kapat',
    manager: {
      add: 'Yardım ekle',
      columns: {
        title: 'Başlık',
        description: 'Açıklama',
        video: 'Video',
        actions: 'İşlemler',
      },
    },
    dialog: {
      addTitle: 'Yardım ekle',
      editTitle: 'Yardımı düzenle',
      title: 'Başlık',
      description: 'Açıklama',
      video: 'Video kodu',
      videoHint: 'YouTube video kodu (örn. dQw4w9WgXcQ) veya videonun adresi',
      add: 'Ekle',
      save: 'Kaydet',
      cancel: 'İptal',
      close: 'Kapat',
    },
    confirmDelete: {
      title: '{{title}} silinsin mi?',
      message: 'Bu yardım videosu artık hiçbir kullanıcıya gösterilmeyecek.',
    },
    toasts: {
      saved: 'İşlem başarıyla tamamlandı',
      deleted: 'Yardım başarıyla silindi!',
      saveFailed: 'İşlem gerçekleştirilemedi. Aynı adla bir yardım olup olmadığını veya alanların doğru doldurulup doldurulmadığını kontrol edin',
    },
  },
});
