import { describe, expect, it } from 'vitest';
import { MB } from '../limits';
import { checkKnowledgeFile, createItemRequest, fileTooLargeMessage, INVALID_FILE_MESSAGE, KNOWLEDGE_URL_PATTERN } from './knowledge';

describe('knowledge files', () => {
  it('takes the three document types with their limits', () => {
    expect(checkKnowledgeFile({ name: 'a.md', size: 5 * MB })).toBeNull();
    expect(checkKnowledgeFile({ name: 'a.txt', size: 5 * MB + 1 })).toBe('❌ File size exceeds 5MB for Text/Markdown.');
    expect(checkKnowledgeFile({ name: 'A.DOCX', size: 20 * MB })).toBeNull();
    expect(checkKnowledgeFile({ name: 'a.docx', size: 20 * MB + 1 })).toBe(fileTooLargeMessage('docx'));
    expect(checkKnowledgeFile({ name: 'a.pdf', size: 25 * MB })).toBeNull();
    expect(checkKnowledgeFile({ name: 'a.pdf', size: 26214401 })).toBe('❌ File size exceeds 25MB for PDF.');
    expect(checkKnowledgeFile({ name: 'a.doc', size: 10 })).toBe(INVALID_FILE_MESSAGE);
    expect(checkKnowledgeFile({ name: 'a.pdf', size: 0 })).toBe(INVALID_FILE_MESSAGE);
  });
});

describe('knowledge items', () => {
  it('accepts http(s)://something.something and bracketed IPv6 only', () => {
    for (const ok of ['https://example.com', 'http://a.b/c?d#e', 'http://127.0.0.1:8080/x', 'http://[::1]:80/'])
      expect(KNOWLEDGE_URL_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['example.com', 'ftp://a.b', 'http://nodot', 'http://a.b c', 'javascript:alert(1)'])
      expect(KNOWLEDGE_URL_PATTERN.test(bad), bad).toBe(false);
  });

  it('takes exactly one kind of knowledge', () => {
    expect(createItemRequest.safeParse({ name: 'n', knowledge_type: { text: { content: 'c' } } }).success).toBe(true);
    expect(createItemRequest.safeParse({ name: 'n', knowledge_type: {} }).success).toBe(false);
    expect(
      createItemRequest.safeParse({ name: 'n', knowledge_type: { text: { content: 'c' }, url: { url: 'https://a.b' } } }).success,
    ).toBe(false);
    expect(createItemRequest.safeParse({ name: 'n', knowledge_type: { sql: 'x' } }).success).toBe(false);
  });
});
