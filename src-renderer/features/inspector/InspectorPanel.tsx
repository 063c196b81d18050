// Placeholder mount point: the webhook inspector helper owns this file and replaces it.
export function InspectorPanel() {
  return <section aria-label="Webhooks" />;
}
