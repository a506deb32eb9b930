// How a requirement id rides on a test's annotations, from its declaration to the reports, as data
// (issue 55): never taken back out of a title, never cut out of a description a target's text fills.
// - The requirements a test holds: one `requirement` annotation per id (fixtures/requirements.ts).
// - A note the verdict makes (a violation, a warning, an observation, what blocked the test): the
//   kind and the requirement in the annotation's type (`violation:CALLS-LIST-OK`), the readable text
//   alone in its description, so that Playwright's own reports read `violation:CALLS-LIST-OK: …`.
//   The reports read the type back by looking it up among those the catalog's ids make: a type no
//   catalogued requirement makes is no note.
const REQUIREMENT_ANNOTATION = 'requirement';

/** What the verdict notes of a requirement; `blocked` is core/results/blocked.ts's. */
export type NoteKind = 'violation' | 'warning' | 'observation' | 'blocked';

/** What a note says of one requirement: in a test's annotations and in its record (report-model.ts). */
export interface Note {
  requirement: string;
  text: string;
}

interface Annotation {
  type: string;
  description?: string;
}

/** The annotation that says a test holds `id`. */
export const requirementAnnotation = (id: string) => ({ type: REQUIREMENT_ANNOTATION, description: id }) as const;

/** The requirements a test holds, in the order it declared them. */
export function heldRequirements(annotations: readonly Annotation[]): string[] {
  return annotations.filter((annotation) => annotation.type === REQUIREMENT_ANNOTATION).map((annotation) => annotation.description ?? '');
}

/** The annotation type of a note of `kind` on `requirement`. */
export const noteType = (kind: NoteKind, requirement: string): string => `${kind}:${requirement}`;

/** The notes of `kind` among `annotations`, each naming one of `requirementIds`, in their order. */
export function notesOf(annotations: readonly Annotation[], kind: NoteKind, requirementIds: Iterable<string>): Note[] {
  const byType = new Map([...requirementIds].map((id) => [noteType(kind, id), id]));
  return annotations.flatMap((annotation) => {
    const requirement = byType.get(annotation.type);
    return requirement === undefined ? [] : [{ requirement, text: annotation.description ?? '' }];
  });
}
