// The file upload step (POST /kb/v1/files, multipart) over XMLHttpRequest, because fetch does
// not report upload progress: onProgress gets the real fraction of bytes sent.
import { ErrorCode, ERROR_MESSAGES, isErrorBody } from '@parla/shared/errors';
import type { UploadedFile } from '@parla/shared/schemas/knowledge';
import { ApiError } from '../../../lib/api-client';
import { getKbJwt } from './kb-request';

/** Large documents on slow links: the upload may take minutes. */
const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export async function uploadFile(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  const jwt = await getKbJwt();
  return new Promise<UploadedFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/kb/v1/files');
    xhr.setRequestHeader('authorization', `Bearer ${jwt}`);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as UploadedFile);
      else if (isErrorBody(data)) reject(new ApiError(data.code, xhr.status, data.errors, data.failReason, data));
      else reject(new ApiError(ErrorCode.ServerError, xhr.status, [ERROR_MESSAGES[ErrorCode.ServerError]]));
    };
    xhr.onerror = () => reject(new ApiError(ErrorCode.NetworkError, 0, [ERROR_MESSAGES[ErrorCode.NetworkError]]));
    xhr.ontimeout = () => reject(new ApiError(ErrorCode.RequestFail, 0, [ERROR_MESSAGES[ErrorCode.RequestFail]]));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
