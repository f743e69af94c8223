// POST /api/stt/list_voices: Azure locale codes, or Google entries with models and locations.
import { useQuery } from '@tanstack/react-query';
import type { GoogleSttLanguage } from '@parla/shared/stt-languages';
import { apiRequest } from '../../../lib/api-client';

export interface SttLanguagesAnswer {
  sttProvider: 'azure' | 'google';
  languages: string[] | GoogleSttLanguage[];
}

export function listSttLanguages(sttProvider: 'azure' | 'google'): Promise<SttLanguagesAnswer> {
  return apiRequest<SttLanguagesAnswer>('/api/stt/list_voices', { body: { sttProvider } });
}

export function useSttLanguages(sttProvider: 'azure' | 'google' | null) {
  return useQuery({
    queryKey: ['brain', 'stt-languages', sttProvider],
    queryFn: () => listSttLanguages(sttProvider!),
    enabled: Boolean(sttProvider),
    staleTime: Infinity,
  });
}
