/** The copyable examples of the /messages-api page: the same call as JSON and as multipart. */
export function curlJson(url: string): string {
  return [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer SEU_TOKEN' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"number": "5511999999999", "body": "Olá!"}'`,
  ].join('\n');
}

export function curlMedia(url: string): string {
  return [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer SEU_TOKEN' \\`,
    `  -F 'number=5511999999999' \\`,
    `  -F 'body=Segue o arquivo' \\`,
    `  -F 'medias=@/caminho/arquivo.pdf'`,
  ].join('\n');
}
