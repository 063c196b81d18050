// Product files as the spreadsheets people use save them, byte for byte, for the import's tests (unit and e2e).
// The GB18030, GBK, Shift-JIS, EUC-KR and Big5 bytes were made by another encoder (Python's codecs), not by the
// decoder under test.

/** What every file below holds: two products with Chinese names, a quoted comma, notes on the first. */
export const PRODUCT_FILE_ROWS = [
  { sku: 'TEA-1', name: '青花瓷茶杯', prompt: '一只青花瓷茶杯，放在木桌上', notes: '易碎' },
  { sku: 'TEA-2', name: '白瓷盘, 26cm', prompt: '白色陶瓷餐盘，俯拍', notes: '' },
] as const;

const CSV_TEXT = 'sku,name,prompt,notes\r\nTEA-1,青花瓷茶杯,一只青花瓷茶杯，放在木桌上,易碎\r\nTEA-2,"白瓷盘, 26cm",白色陶瓷餐盘，俯拍,\r\n';
/** Excel's "Unicode text": tab-separated, quotes only where a field needs them. */
const TAB_TEXT = 'sku\tname\tprompt\tnotes\r\nTEA-1\t青花瓷茶杯\t一只青花瓷茶杯，放在木桌上\t易碎\r\nTEA-2\t白瓷盘, 26cm\t白色陶瓷餐盘，俯拍\t\r\n';

/** CSV_TEXT in GB18030, as Excel or WPS on Chinese Windows saves "CSV (逗号分隔)". */
export function gb18030Csv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70742c6e6f7465730d0a5445412d312cc7e0bba8b4c9b2e8b1ad2cd2bbd6bbc7e0bba8b4c9b2e8b1ada3acb7c5d4' +
      'dac4bed7c0c9cf2cd2d7cbe90d0a5445412d322c22b0d7b4c9c5cc2c203236636d222cb0d7c9abccd5b4c9b2cdc5cca3acb8a9c5c42c0d0a',
    'hex',
  );
}

/** TAB_TEXT in UTF-16 LE with its BOM: Excel's "Unicode text (*.txt)". */
export function utf16leTabFile(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TAB_TEXT, 'utf16le')]);
}

/** CSV_TEXT in UTF-16 BE with its BOM. */
export function utf16beCsv(): Buffer {
  return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(CSV_TEXT, 'utf16le').swap16()]);
}

/** CSV_TEXT in UTF-8 with a BOM (Excel's "CSV UTF-8"); without it when `bom` is false. */
export function utf8Csv(bom = true): Buffer {
  return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(CSV_TEXT, 'utf8')]);
}

/** Not a text file: a PNG signature, then bytes from a fixed pseudo-random sequence. */
export function binaryFile(length = 4096): Buffer {
  const bytes = Buffer.alloc(length);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  let seed = 0x2545f491;
  for (let i = 8; i < length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    bytes[i] = seed & 0xff;
  }
  return bytes;
}

/** A Taobao listing sheet as Excel on Chinese Windows saves it: Chinese names mixed with Latin, brands and sizes. */
export const MARKET_CSV =
  'sku,name,prompt,notes\r\nMUG-001,ins风 陶瓷马克杯 大容量 350ml,白色哑光陶瓷马克杯，木质桌面，晨光从左侧照入,易碎，需加厚包装\r\nCASE-15P,Apple iPhone 15 Pro 手机壳 透明 防摔,透明硅胶手机壳，四角气囊防摔，纯白背景,\r\nBAG-22,帆布托特包 女 大容量 通勤,米色帆布托特包，挂在衣架上，柔和自然光,含内袋\r\nTEA-7,福建白茶 白牡丹 2019年 100g 礼盒装,白茶饼放在竹制茶盘上，旁边有一只青瓷茶杯,限量\r\n';
/** MARKET_CSV in GB18030, encoded by Python's codec. */
export function marketGb18030Csv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70742c6e6f7465730d0a4d55472d3030312c696e73b7e720ccd5b4c9c2edbfcbb1ad20b4f3c8ddc1bf20' +
      '3335306d6c2cb0d7c9abd1c6b9e2ccd5b4c9c2edbfcbb1ada3acc4bed6cad7c0c3e6a3acb3bfb9e2b4d3d7f3b2e0d5d5c8eb2cd2d7cbe9' +
      'a3acd0e8bcd3baf1b0fcd7b00d0a434153452d3135502c4170706c65206950686f6e652031352050726f20cad6bbfabfc720cdb8c3f720' +
      'b7c0cba42ccdb8c3f7b9e8bdbacad6bbfabfc7a3accbc4bdc7c6f8c4d2b7c0cba4a3acb4bfb0d7b1b3beb02c0d0a4241472d32322cb7ab' +
      'b2bccdd0ccd8b0fc20c5ae20b4f3c8ddc1bf20cda8c7da2cc3d7c9abb7abb2bccdd0ccd8b0fca3acb9d2d4dad2c2bcdcc9cfa3acc8e1ba' +
      'cdd7d4c8bbb9e22cbaacc4dab4fc0d0a5445412d372cb8a3bda8b0d7b2e820b0d7c4b5b5a42032303139c4ea203130306720c0f1bad0d7' +
      'b02cb0d7b2e8b1fdb7c5d4dad6f1d6c6b2e8c5ccc9cfa3acc5d4b1dfd3d0d2bbd6bbc7e0b4c9b2e8b1ad2ccfdec1bf0d0a',
    'hex',
  );
}

/** A sheet saved as GBK by WPS in which a few names hold rare characters from GBK's extension (喆, 堃, 犇). */
export const RARE_CSV =
  'sku,name,prompt,notes\r\nPAN-26,不粘锅 煎锅 26cm 麦饭石,深灰色不粘煎锅，锅里有一个煎蛋，俯拍,\r\nGIFT-1,喆喆家 手作香薰蜡烛,玻璃杯装香薰蜡烛，点燃，暖色背景,品牌：喆喆家\r\nGIFT-2,堃记 红木筷子 10双,红木筷子整齐排列，深色木纹背景,\r\nTOY-4,犇犇 儿童积木 大颗粒 100片,彩色积木拼成的小房子，白色背景,3岁以上\r\nTOWEL-2,纯棉毛巾 加厚 吸水 3条装,三条叠好的灰色、白色、蓝色毛巾，浴室台面上,颜色随机\r\n';
/** RARE_CSV in GBK, encoded by Python's codec. */
export function rareNamesGbkCsv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70742c6e6f7465730d0a50414e2d32362cb2bbd5b3b9f820bce5b9f8203236636d20c2f3b7b9caaf2cc9' +
      'eebbd2c9abb2bbd5b3bce5b9f8a3acb9f8c0efd3d0d2bbb8f6bce5b5b0a3acb8a9c5c42c0d0a474946542d312c86b486b4bcd220cad6d7' +
      'f7cfe3deb9c0afd6f22cb2a3c1a7b1add7b0cfe3deb9c0afd6f2a3acb5e3c8bca3acc5afc9abb1b3beb02cc6b7c5c6a3ba86b486b4bcd2' +
      '0d0a474946542d322c88d2bcc720baecc4bebfead7d3203130cbab2cbaecc4bebfead7d3d5fbc6ebc5c5c1d0a3acc9eec9abc4becec6b1' +
      'b3beb02c0d0a544f592d342ca0c4a0c420b6f9cdafbbfdc4be20b4f3bfc5c1a320313030c6ac2cb2cac9abbbfdc4bec6b4b3c9b5c4d0a1' +
      'b7bfd7d3a3acb0d7c9abb1b3beb02c33cbead2d4c9cf0d0a544f57454c2d322cb4bfc3dec3abbded20bcd3baf120cefccbae2033ccf5d7' +
      'b02cc8fdccf5b5febac3b5c4bbd2c9aba1a2b0d7c9aba1a2c0b6c9abc3abbdeda3acd4a1cad2cca8c3e6c9cf2cd1d5c9abcbe6bbfa0d0a',
    'hex',
  );
}

/** GB18030 beyond GBK: a name with 𠮷, written in four bytes. */
export const FOUR_BYTE_CSV =
  'sku,name,prompt\r\nFOOD-3,𠮷野家 联名 便当盒,双层便当盒，打开的盖子，放在木质餐桌上\r\nSHOE-9,李宁 运动鞋 男款 轻便 透气 42码,黑白配色跑鞋，侧面视角，地面有轻微倒影\r\n';
/** FOUR_BYTE_CSV in GB18030, encoded by Python's codec. */
export function fourByteGb18030Csv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70740d0a464f4f442d332c9534b235d2b0bcd220c1aac3fb20b1e3b5b1bad02ccbabb2e3b1e3b5b1bad0' +
      'a3acb4f2bfaab5c4b8c7d7d3a3acb7c5d4dac4bed6cab2cdd7c0c9cf0d0a53484f452d392cc0eec4fe20d4cbb6afd0ac20c4d0bfee20c7' +
      'e1b1e320cdb8c6f8203432c2eb2cbadab0d7c5e4c9abc5dcd0aca3acb2e0c3e6cad3bdc7a3acb5d8c3e6d3d0c7e1cea2b5b9d3b00d0a',
    'hex',
  );
}

/** A sheet saved by Excel on Japanese Windows (Shift-JIS): read as GB18030 it was "儅僌僇僢僾". */
export const JAPANESE_CSV =
  'sku,name,prompt,notes\r\nJP-1,マグカップ,白いマグカップ、木のテーブルの上,割れ物\r\nJP-2,陶器の皿 26cm,白い陶器の皿、真上から撮影,\r\nJP-3,帆布トートバッグ,ベージュのトートバッグ、自然光,\r\n';
/** JAPANESE_CSV in SHIFT-JIS, encoded by Python's codec. */
export function shiftJisCsv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70742c6e6f7465730d0a4a502d312c837d834f834a836283762c949282a2837d834f834a836283768141' +
      '96d882cc8365815b8375838b82cc8fe32c8a8482ea95a80d0a4a502d322c93a98aed82cc8e4d203236636d2c949282a293a98aed82cc8e' +
      '4d8141905e8fe382a982e78e4289652c0d0a4a502d332c94bf957a8367815b8367836f8362834f2c8378815b8357838582cc8367815b83' +
      '67836f8362834f81418ea991528cf52c0d0a',
    'hex',
  );
}

/** A sheet saved on Korean Windows (EUC-KR): its Hangul bytes are everyday GB2312 characters, so it read as plausible Chinese. */
export const KOREAN_CSV =
  'sku,name,prompt,notes\r\nKR-1,머그컵 350ml,나무 테이블 위의 흰색 머그컵, 아침 햇살,깨지기 쉬움\r\nKR-2,도자기 접시 26cm,흰색 도자기 접시, 위에서 촬영,\r\nKR-3,캔버스 토트백,베이지색 토트백, 자연광,\r\n';
/** KOREAN_CSV in EUC-KR, encoded by Python's codec. */
export function eucKrCsv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70742c6e6f7465730d0a4b522d312cb8d3b1d7c4c5203335306d6c2cb3aab9ab20c5d7c0ccbaed20c0a7' +
      'c0c720c8f2bbf620b8d3b1d7c4c52c20bec6c4a720c7debbec2cb1fac1f6b1e220bdacbff20d0a4b522d322cb5b5c0dab1e220c1a2bdc3' +
      '203236636d2cc8f2bbf620b5b5c0dab1e220c1a2bdc32c20c0a7bfa1bcad20c3d4bfb52c0d0a4b522d332cc4b5b9f6bdba20c5e4c6aeb9' +
      'e92cbaa3c0ccc1f6bbf620c5e4c6aeb9e92c20c0dabfacb1a42c0d0a',
    'hex',
  );
}

/** A sheet saved on Traditional Chinese Windows (Big5, Taiwan and Hong Kong). */
export const TRADITIONAL_CSV =
  'sku,name,prompt,notes\r\nTW-1,青花瓷茶杯,一隻青花瓷茶杯，放在木桌上,易碎\r\nTW-2,白瓷盤 26cm,白色陶瓷餐盤，俯拍,\r\nTW-3,帆布托特包 女 大容量,米色帆布托特包，掛在衣架上，柔和自然光,含內袋\r\n';
/** TRADITIONAL_CSV in BIG5, encoded by Python's codec. */
export function big5Csv(): Buffer {
  return Buffer.from(
    '736b752c6e616d652c70726f6d70742c6e6f7465730d0a54572d312cab43aae1b2a1aff9aa4d2ca440b0a6ab43aae1b2a1aff9aa4da141' +
      'a9f1a662a4ecaee0a4572ca9f6b8480d0a54572d322ca5d5b2a1bd4c203236636d2ca5d5a6e2b3b3b2a1c05cbd4ca141adc1a9e72c0d0a' +
      '54572d332ca67ca5aca6abaf53a55d20a46b20a46aae65b6712ca6cca6e2a67ca5aca6abaf53a55da141b1bea662a6e7ac5ba457a141ac' +
      '58a94da6dbb54da5fa2ca774a4bab3550d0a',
    'hex',
  );
}

