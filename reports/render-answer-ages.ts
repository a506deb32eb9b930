// The Answer age section of index.html, beside the Readings: the bound the run judged comparisons
// of two answers under (MAX_ANSWER_AGE), and per operation the largest age its answers were seen to
// have. Like the readings, it is what the suite learned of the target, not a verdict on it: the
// specification says nothing of freshness (core/checks/answer-age.ts).
import type { AnswerAges } from '../core/results/report-model.ts';
import { operationNames } from '../openapi/contract.ts';
import { htmlEscape as h } from './html-escape.ts';

/** The section's link in the report's navigation, when it has the section. */
export const answerAgeNavLink = (ages: AnswerAges | undefined): string => (ages ? '<a href="#answer-age">Answer age</a>' : '');

/**
 * The section; nothing for a report without the field (a results file of an older run). Passive
 * judging (`passive`) never asks again, so it has no way to see an age: it says what the bound did.
 */
export function renderAnswerAges(ages: AnswerAges | undefined, passive = false): string {
  if (!ages) return '';
  const bound =
    ages.boundSeconds === 0
      ? 'MAX_ANSWER_AGE = 0 s: every answer was taken to show the store as it was when it arrived.'
      : `MAX_ANSWER_AGE = ${ages.boundSeconds} s: comparisons of two answers fail only on what no answer up to ${ages.boundSeconds} s older than its arrival explains.`;
  if (passive)
    return `<section id="answer-age"><h2>Answer age: how old answers were allowed to be</h2><p>${h(bound)}</p><p>Recorded traffic is judged as it was recorded: nothing is asked again, so how old the answers were is not learned. Two recorded answers are compared in an order only where no age within the bound could reverse it; a difference only such an age explains is not judged.</p></section>`;
  // In the document's order, by the names a reader knows them by; the ages hold only its operations (answer-ages.ts).
  const seen = operationNames().flatMap(({ id, name }) => {
    const seconds = ages.largest[id];
    return seconds === undefined
      ? []
      : [`<li data-operation="${h(id)}">${h(`${name}: answers at least ${seconds} s older than their arrival were seen.`)}</li>`];
  });
  const found = seen.length === 0 ? '<p>No answer was seen to be older than its arrival.</p>' : `<ul>${seen.join('')}</ul>`;
  return `<section id="answer-age"><h2>Answer age: what the suite learned of the answers' age</h2><p>${h(bound)}</p>${found}<p class="muted">An answer may show the store as it was some seconds before it arrived (a cache, a lagging read replica); the specification says nothing of freshness, so such an answer breaks no requirement. An age is seen when asking again, once the bound has passed, removes what a comparison found.</p></section>`;
}
