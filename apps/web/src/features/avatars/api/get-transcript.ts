import { queryOptions, useQuery } from '@tanstack/react-query';
import { transcriptFileName, transcriptText, type Transcript } from '@parla/shared/schemas/transcripts';
import { apiRequest } from '../../../lib/api-client';

export function getTranscript(conversationId: string): Promise<Transcript> {
  return apiRequest(`/api/conversations/${encodeURIComponent(conversationId)}/transcript`);
}

export function getTranscriptQueryOptions(conversationId: string) {
  return queryOptions({ queryKey: ['transcripts', 'one', conversationId], queryFn: () => getTranscript(conversationId), staleTime: 0 });
}

export function useTranscript(conversationId: string | null) {
  return useQuery({ ...getTranscriptQueryOptions(conversationId ?? ''), enabled: conversationId !== null });
}

/** Saves the transcript as a file (the same text and JSON the server's download gives). */
export function downloadTranscript(t: Transcript, format: 'txt' | 'json'): void {
  const body =
    format === 'txt' ? transcriptText(t) : `${JSON.stringify({ conversation: t.conversation, messages: t.messages }, null, 2)}\n`;
  const url = URL.createObjectURL(new Blob([body], { type: format === 'txt' ? 'text/plain;charset=utf-8' : 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = transcriptFileName(t, format);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
