// Which questions of one conversation the avatar could not answer (issue 38 item 3), read from
// its stored transcript: a question is unanswered when the knowledge base was searched and
// nothing cleared the cut-off, when the answer said it did not know, or when the visitor's next
// question asks the same again in other words. Pure: the lexemes come from the database's text
// analysis (the knowledge search's), the similarity is computed here.
import type { GapReason } from '@parla/shared/schemas/insight';

export interface StoredMessage {
  role: string;
  text: string;
  at: Date;
  knowledgeHits: number | null;
}

export interface Question {
  text: string;
  at: Date;
  lexemes: string[];
  /** knowledge: answered with passages of the knowledge base; other: answered without it. */
  outcome: 'knowledge' | 'other' | 'unanswered';
  reason?: GapReason;
}

/** Two questions mean the same when their lexemes overlap this much (overlap coefficient: the
 *  shorter question's share of lexemes in the other): "ship to Canada" and "deliver my parcel
 *  to Canada" share half of the shorter one. */
export const SAME_QUESTION = 0.5;

/** What an answer says when it does not know (English: the product's and the models' default). */
const DID_NOT_KNOW = [
  /\b(i|we)\s+(do\s+not|don'?t|dont)\s+(know|have\s+(any\s+|that\s+|this\s+)?(information|details))\b/i,
  /\b(i\s+am|i'?m)\s+not\s+sure\b/i,
  /\b(i|we)\s+(cannot|can'?t|could\s+not|couldn'?t|am\s+unable\s+to|are\s+unable\s+to)\s+(find|answer|help\s+with\s+that)\b/i,
  /\bno\s+(relevant\s+)?information\s+(about|on|regarding)\b/i,
  /\b(isn'?t|is\s+not)\s+(something\s+)?in\s+(my|the)\s+knowledge\b/i,
];

/** Words that are small talk, not questions: a message of only these is never a gap. */
const SMALL_TALK = new Set(
  'hi hello hey hallo thanks thank thx ok okay yes yeah yep no nope bye goodbye great cool fine good nice sure please morning evening afternoon'.split(
    ' ',
  ),
);

export function saidItDidNotKnow(answer: string): boolean {
  return DID_NOT_KNOW.some((re) => re.test(answer));
}

export function isSmallTalk(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.length === 0 || words.every((w) => SMALL_TALK.has(w));
}

/** Overlap coefficient of two lexeme sets: 1 when one's words are all in the other, 0 for none in common. */
export function similarity(a: readonly string[], b: readonly string[]): number {
  if (!a.length || !b.length) return 0;
  const set = new Set(a);
  const other = new Set(b);
  const common = [...other].filter((w) => set.has(w)).length;
  return common / Math.min(set.size, other.size);
}

/**
 * The visitor's questions with what became of each. `lexemesOf(i)` gives the lexemes of the
 * i-th user message (the hidden wake-up is not a question). A question's answer is the avatar's
 * message after it, before the next question.
 */
export function classify(messages: StoredMessage[], lexemes: string[][]): Question[] {
  const questions: Question[] = [];
  let answer: StoredMessage | null = null;
  const close = () => {
    const q = questions.at(-1);
    if (!q || q.outcome !== 'other') return;
    if (!answer) return; // cut before any answer: the visitor moved on, nothing to judge
    if (saidItDidNotKnow(answer.text)) Object.assign(q, { outcome: 'unanswered', reason: 'did_not_know' });
    else if (answer.knowledgeHits === 0) Object.assign(q, { outcome: 'unanswered', reason: 'no_knowledge' });
    else if ((answer.knowledgeHits ?? 0) > 0) q.outcome = 'knowledge';
  };
  let i = 0;
  for (const m of messages) {
    if (m.role === 'user') {
      close();
      answer = null;
      questions.push({ text: m.text, at: m.at, lexemes: lexemes[i++] ?? [], outcome: 'other' });
    } else if (m.role === 'assistant' && questions.length && !answer) answer = m;
  }
  close();
  // Asked again in other words: the question before was not answered, whatever the reply said.
  for (let k = 0; k + 1 < questions.length; k++) {
    const q = questions[k]!;
    const next = questions[k + 1]!;
    if (q.outcome === 'unanswered' || !q.lexemes.length) continue;
    if (next.text.trim().toLowerCase() !== q.text.trim().toLowerCase() && similarity(q.lexemes, next.lexemes) >= SAME_QUESTION)
      Object.assign(q, { outcome: 'unanswered', reason: 'asked_again' });
  }
  return questions;
}
