/**
 * Copies text. Uses the async Clipboard API when allowed (secure context, permission); otherwise
 * selects `fallbackTarget`'s text so the user can press Ctrl+C / ⌘C, and tries execCommand.
 * Resolves to true when the text is on the clipboard, false when it was only selected.
 */
export async function copyText(text: string, fallbackTarget?: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // denied or unavailable: fall through to selecting the text
  }
  if (fallbackTarget) selectContents(fallbackTarget);
  try {
    return fallbackTarget ? document.execCommand('copy') : false;
  } catch {
    return false;
  }
}

export function selectContents(element: HTMLElement) {
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    element.focus();
    element.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
