-- Issue 16: the language of the words the bot itself sends ('Voltar', 'Menu inicial', 'Aceito'…), a company setting.
ALTER TABLE "company_settings" ADD COLUMN "bot_language" text DEFAULT 'pt-BR' NOT NULL;
