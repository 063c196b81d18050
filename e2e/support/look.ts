// The look specs' probe for cut labels (e2e/catalog-look.spec.ts, e2e/labels-look.spec.ts): what a designer sees
// ending in an ellipsis or clipped. Written as a page script (the e2e project has no DOM types).

/**
 * Labels under `root` whose text is cut: a button, head, cell or name wider than its box with the overflow hidden or
 * ellipsised (a line that does not wrap is measured: a button's scrollWidth leaves its text out); a select whose chosen option is wider than the select shows it (measured on a copy of the select as
 * wide as that option); a text field or text area whose value does not fit it. Text for screen readers only is
 * clipped on purpose and left out.
 */
export const cutLabels = (root: string): string => `(() => {
  const cut = [];
  const name = (el, text) => el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + (el.getAttribute('data-testid') ? '[' + el.getAttribute('data-testid') + ']' : '') + ': ' + text.trim().slice(0, 40);
  const canvas = document.createElement('canvas').getContext('2d');
  const textWidth = (style, text) => {
    canvas.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(' ');
    canvas.letterSpacing = style.letterSpacing === 'normal' ? '0px' : style.letterSpacing;
    return canvas.measureText(text.trim()).width;
  };
  // The width a select needs to show this text whole: a copy of it, sized to its content, with that option only.
  const selectNeeds = (el, style, text) => {
    const copy = document.createElement('select');
    const option = document.createElement('option');
    option.textContent = text;
    copy.append(option);
    copy.style.cssText = 'position:fixed;left:0;top:0;visibility:hidden;width:max-content;min-width:0;max-width:none';
    for (const p of ['font', 'padding', 'border', 'letterSpacing']) copy.style[p] = style[p];
    document.body.append(copy);
    const width = copy.getBoundingClientRect().width;
    copy.remove();
    return width;
  };
  for (const el of document.querySelectorAll(${JSON.stringify(root)} + ' :is(button, label, th, td, h1, h2, h3, span, p, a, select, input, textarea, [role="columnheader"])')) {
    if (el.getClientRects().length === 0 || el.closest('[hidden], .sr-only')) continue;
    const style = getComputedStyle(el);
    // A transparent select over a box that writes its choice (the box is checked as text).
    if (el.tagName === 'SELECT' && style.opacity === '0') continue;
    if (el.tagName === 'SELECT') {
      const text = el.selectedOptions[0]?.textContent ?? '';
      if (text.trim() !== '' && selectNeeds(el, style, text) > el.getBoundingClientRect().width + 1) cut.push(name(el, text));
      continue;
    }
    if (el.tagName === 'TEXTAREA') {
      if (el.value.trim() !== '' && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) cut.push(name(el, el.value));
      continue;
    }
    if (el.tagName === 'INPUT') {
      if (!['text', 'search', ''].includes(el.getAttribute('type') ?? '')) continue;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (el.value.trim() !== '' && textWidth(style, el.value) > room + 1) cut.push(name(el, el.value));
      continue;
    }
    if (style.overflowX === 'visible' && style.textOverflow !== 'ellipsis') continue;
    if ((el.textContent ?? '').trim() === '') continue;
    // A button does not count its text's overflow in scrollWidth: a line that does not wrap is measured itself.
    // Fractional widths: an ellipsis cuts a line wider than its box by less than a pixel too.
    const room = el.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
    const oneLine = /nowrap|pre/.test(style.whiteSpace) || style.textWrapMode === 'nowrap';
    if (el.scrollWidth > el.clientWidth + 1 || (oneLine && textWidth(style, el.textContent ?? '') > room + 0.25)) cut.push(name(el, el.textContent ?? ''));
  }
  return cut;
})()`;
