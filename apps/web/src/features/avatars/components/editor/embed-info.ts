// Texts of the Embed tab's information panel (spec 2 §2: clicking a field explains it).
import type { FieldInfo } from '../../../../components/info-panel';

export interface UrlParam {
  name: string;
  values: string;
  example: string;
  info: FieldInfo;
}

export const URL_PARAMS: UrlParam[] = [
  {
    name: 'dialPageBackground',
    values: 'a color or an image URL',
    example: 'dialPageBackground=%23101828',
    info: {
      title: 'dialPageBackground',
      description:
        'What the page shows behind the avatar before the conversation starts: a CSS color (URL-encode the #) or the URL of an image.',
      possibleValues: ['#101828 (written %23101828)', 'navy', 'https://example.com/backdrop.jpg'],
      whyImportant: 'It makes the embedded avatar match the page around it before anyone clicks to talk.',
    },
  },
  {
    name: 'screenAspectRatio',
    values: 'W:H, e.g. 16:9 or 9:16',
    example: 'screenAspectRatio=9:16',
    info: {
      title: 'screenAspectRatio',
      description: 'The shape of the avatar stage inside the frame; the rest of the frame is filled with the background.',
      possibleValues: ['16:9', '4:3', '1:1', '9:16'],
      whyImportant: 'A portrait ratio suits chat bubbles and phones; a landscape ratio suits page headers.',
    },
  },
  {
    name: 'controlButtonPosition',
    values: 'center, right or left',
    example: 'controlButtonPosition=right',
    info: {
      title: 'controlButtonPosition',
      description: 'Where the call controls (connect, microphone, speaker) sit at the bottom of the frame.',
      possibleValues: ['center', 'right', 'left'],
      whyImportant: 'Keeps the controls clear of other elements of your page, such as a cookie banner.',
    },
  },
  {
    name: 'hideChatInput',
    values: 'true or false',
    example: 'hideChatInput=true',
    info: {
      title: 'hideChatInput',
      description: 'Hides the text box, so people can only talk to the avatar by voice.',
      possibleValues: ['true', 'false'],
      whyImportant: 'Voice-only experiences look cleaner without a text box.',
    },
  },
  {
    name: 'hideChatHistory',
    values: 'true or false',
    example: 'hideChatHistory=true',
    info: {
      title: 'hideChatHistory',
      description: 'Hides the transcript of the conversation shown over the avatar.',
      possibleValues: ['true', 'false'],
      whyImportant: 'Small frames have little room: without the history the avatar stays fully visible.',
    },
  },
  {
    name: 'connect',
    values: 'true or false',
    example: 'connect=true',
    info: {
      title: 'connect',
      description: 'true skips the dial page and starts the conversation as soon as the frame loads.',
      possibleValues: ['true', 'false'],
      whyImportant: 'Use it when the frame only opens after the visitor asked to talk, so they do not have to click twice.',
    },
  },
];

export const EMBED_FIELD_INFO: Record<'snippet' | 'avatarConfig' | 'clientConfig' | 'allowedWebsites', FieldInfo> = {
  allowedWebsites: {
    title: 'Allowed websites',
    description:
      'The websites whose pages may start conversations with this avatar, each written as scheme, host and port (what browsers send as the Origin of a page). Conversations opened from any other website are refused.',
    possibleValues: ['https://example.com', 'https://shop.example.com', 'http://localhost:3000'],
    whyImportant:
      'It stops other websites from using your avatar (and your minutes). An empty list allows every website; the avatar page, the editor preview and the access link always work.',
  },
  snippet: {
    title: 'Embed code',
    description:
      'Paste this IFrame into the HTML of your page where the avatar should appear. Add URL parameters from the table to its src to change how it looks.',
    whyImportant:
      'The iframe asks for the microphone and camera itself (the allow attribute); without it voice conversations cannot start.',
  },
  avatarConfig: {
    title: 'Avatar / environment JSON',
    description:
      'The avatar config file: subtitles, the panel behind the avatar (Enable, BgColor, contentURL), the scene background, the 3D environment and its navigation mesh, and the lights. The Environment tab edits the same file.',
    possibleValues: [
      'ParentConfig',
      'Subtitle.Enabled',
      'panel { Enable, BgColor, contentURL }',
      "Scene.background ('transparent: true/false')",
      'Environment / NavigationMesh { gltf-model, position, rotation, scale, shadow }',
      'Lights',
    ],
    whyImportant: 'Customers with several avatars can host one file themselves and point many avatars at it.',
  },
  clientConfig: {
    title: 'Client JSON',
    description:
      "The player's interface: the LET'S CHAT button text, titles, and default values of the URL parameters. URL parameters of the embed code override these.",
    whyImportant: 'Defaults here apply to every page that embeds the avatar, without changing each embed code.',
  },
};
