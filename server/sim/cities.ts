/**
 * Major Chinese cities: WGS-84 centre, elevation, plate prefix and GB/T 2260 code (the 0x0100
 * register message carries the province as the first two digits and the city as the last four).
 * `weight` is a rough size class: home cities are drawn in proportion to it.
 */
export interface City {
  readonly name: string;
  readonly lng: number;
  readonly lat: number;
  /** Metres above sea level, approximate. */
  readonly elevation: number;
  readonly plate: string;
  readonly code: number;
  /** Urban radius in km used to place trip ends. */
  readonly radiusKm: number;
  readonly weight: number;
}

function c(name: string, lng: number, lat: number, elevation: number, plate: string, code: number, radiusKm: number, weight: number): City {
  return { name, lng, lat, elevation, plate, code, radiusKm, weight };
}

export const CITIES: readonly City[] = [
  c('北京', 116.4074, 39.9042, 44, '京A', 110100, 18, 5),
  c('天津', 117.2008, 39.0842, 5, '津A', 120100, 14, 3),
  c('石家庄', 114.5149, 38.0428, 81, '冀A', 130100, 10, 2),
  c('太原', 112.5489, 37.8706, 800, '晋A', 140100, 10, 1),
  c('呼和浩特', 111.7492, 40.8426, 1050, '蒙A', 150100, 8, 1),
  c('沈阳', 123.4315, 41.8057, 55, '辽A', 210100, 12, 2),
  c('大连', 121.6147, 38.9140, 30, '辽B', 210200, 10, 2),
  c('长春', 125.3245, 43.8171, 220, '吉A', 220100, 10, 1),
  c('哈尔滨', 126.5350, 45.8038, 150, '黑A', 230100, 10, 1),
  c('上海', 121.4737, 31.2304, 4, '沪A', 310100, 18, 5),
  c('南京', 118.7969, 32.0603, 20, '苏A', 320100, 12, 3),
  c('无锡', 120.3119, 31.4912, 5, '苏B', 320200, 9, 2),
  c('徐州', 117.2841, 34.2058, 40, '苏C', 320300, 8, 1),
  c('苏州', 120.5853, 31.2989, 5, '苏E', 320500, 10, 3),
  c('杭州', 120.1551, 30.2741, 19, '浙A', 330100, 12, 3),
  c('宁波', 121.5503, 29.8746, 5, '浙B', 330200, 9, 2),
  c('合肥', 117.2272, 31.8206, 30, '皖A', 340100, 10, 2),
  c('福州', 119.2965, 26.0745, 10, '闽A', 350100, 9, 1),
  c('厦门', 118.0894, 24.4798, 10, '闽D', 350200, 8, 1),
  c('南昌', 115.8582, 28.6829, 25, '赣A', 360100, 9, 1),
  c('济南', 117.1201, 36.6512, 50, '鲁A', 370100, 10, 2),
  c('青岛', 120.3826, 36.0671, 20, '鲁B', 370200, 10, 2),
  c('郑州', 113.6254, 34.7466, 110, '豫A', 410100, 12, 3),
  c('洛阳', 112.4540, 34.6197, 150, '豫C', 410300, 8, 1),
  c('武汉', 114.3055, 30.5928, 23, '鄂A', 420100, 14, 3),
  c('长沙', 112.9388, 28.2282, 45, '湘A', 430100, 10, 2),
  c('广州', 113.2644, 23.1291, 15, '粤A', 440100, 16, 5),
  c('深圳', 114.0579, 22.5431, 10, '粤B', 440300, 14, 4),
  c('佛山', 113.1220, 23.0215, 10, '粤E', 440600, 9, 2),
  c('东莞', 113.7518, 23.0207, 10, '粤S', 441900, 10, 2),
  c('南宁', 108.3661, 22.8170, 80, '桂A', 450100, 9, 1),
  c('海口', 110.1999, 20.0440, 10, '琼A', 460100, 7, 1),
  c('重庆', 106.5516, 29.5630, 250, '渝A', 500100, 14, 3),
  c('成都', 104.0665, 30.5723, 500, '川A', 510100, 14, 3),
  c('贵阳', 106.6302, 26.6477, 1100, '贵A', 520100, 8, 1),
  c('昆明', 102.8329, 24.8801, 1890, '云A', 530100, 10, 1),
  c('拉萨', 91.1172, 29.6469, 3650, '藏A', 540100, 6, 1),
  c('西安', 108.9402, 34.3416, 400, '陕A', 610100, 12, 3),
  c('兰州', 103.8343, 36.0611, 1520, '甘A', 620100, 8, 1),
  c('西宁', 101.7782, 36.6171, 2260, '青A', 630100, 7, 1),
  c('银川', 106.2309, 38.4872, 1110, '宁A', 640100, 7, 1),
  c('乌鲁木齐', 87.6168, 43.8256, 800, '新A', 650100, 10, 1),
];

const TOTAL_WEIGHT = CITIES.reduce((sum, city) => sum + city.weight, 0);

/** A city drawn in proportion to its weight from a uniform number in [0, 1). */
export function cityByWeight(u: number): City {
  let rest = u * TOTAL_WEIGHT;
  for (const city of CITIES) {
    rest -= city.weight;
    if (rest < 0) return city;
  }
  return CITIES[CITIES.length - 1]!;
}

/** The city whose plate prefix the plate starts with (京A…), else one of its province (京…), else undefined. */
export function cityOfPlate(plate: string): City | undefined {
  const exact = CITIES.find((city) => plate.startsWith(city.plate));
  if (exact) return exact;
  return CITIES.find((city) => plate.startsWith(city.plate.slice(0, 1)));
}
