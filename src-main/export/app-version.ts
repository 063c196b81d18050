// The app's name and version for the generation data of exported images (package.json, bundled at build time).
import pkg from '../../package.json' with { type: 'json' };

export const APP_NAME: string = pkg.productName ?? pkg.name;
export const APP_VERSION: string = pkg.version;
