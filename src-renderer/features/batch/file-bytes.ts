// A chosen file's bytes for IPC, which carries text: base64, read by the browser's own encoder (a data URL).

/** The file's bytes as base64 (a data URL without its `data:…;base64,` prefix). */
export function fileBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      // An empty file may come back as a bare `data:`.
      const comma = url.indexOf(',');
      resolve(comma < 0 ? '' : url.slice(comma + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}
