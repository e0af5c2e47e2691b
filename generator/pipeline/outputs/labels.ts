/** How a name from the collections table or a schema reads as a label: `spec_url` -> `Spec url`, `services` -> `Services`. */
export const humanize = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');
